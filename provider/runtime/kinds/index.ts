import type { StubType } from "../../stub/index.js";
import type { AnyKind } from "../kind-definition.js";
import { accountAssociationsKind } from "./account-associations-kind.js";
import { externalGroupRoleMappingKind } from "./external-group-role-mapping-kind.js";
import { groupInviteKind } from "./group-invite-kind.js";
import { groupKind } from "./group-kind.js";
import { identityKind } from "./identity-kind.js";
import { identityProviderKind } from "./identity-provider-kind.js";
import { overlayBindingKind } from "./overlay-binding-kind.js";
import { overlayKind } from "./overlay-kind.js";
import { pullTokenKind } from "./pull-token-kind.js";
import { repoKind } from "./repo-kind.js";
import { roleBindingKind } from "./role-binding-kind.js";
import { roleKind } from "./role-kind.js";
import { subscriptionKind } from "./subscription-kind.js";
import { tagKind } from "./tag-kind.js";

/**
 * The kind definition of every resource type (a missing type is a compile error).
 *
 * @example
 * makeProvider(KIND_DEFINITIONS.Role, getClient);
 */
export const KIND_DEFINITIONS: Readonly<Record<StubType, AnyKind>> = {
  Group: groupKind,
  Identity: identityKind,
  RoleBinding: roleBindingKind,
  Role: roleKind,
  IdentityProvider: identityProviderKind,
  GroupInvite: groupInviteKind,
  AccountAssociations: accountAssociationsKind,
  PullToken: pullTokenKind,
  ExternalGroupRoleMapping: externalGroupRoleMappingKind,
  Repo: repoKind,
  Tag: tagKind,
  Overlay: overlayKind,
  OverlayBinding: overlayBindingKind,
  Subscription: subscriptionKind,
};

export { accountAssociationsKind } from "./account-associations-kind.js";
export type { DeleteGroupOptions, NonEmptyParent } from "./delete-group.js";
export {
  deleteGroup,
  deleteWhenEmpty,
  GROUP_PARENT,
  IDENTITY_PROVIDER_PARENT,
  OVERLAY_PARENT,
  REPO_PARENT,
} from "./delete-group.js";
export {
  ExternalGroupRoleMappingInputs,
  externalGroupRoleMappingKind,
  orgRootOf,
} from "./external-group-role-mapping-kind.js";
export { durationMs, groupInviteKind } from "./group-invite-kind.js";
export { groupKind } from "./group-kind.js";
export { identityKind } from "./identity-kind.js";
export { identityProviderKind } from "./identity-provider-kind.js";
export { OverlayBindingInputs, overlayBindingKind } from "./overlay-binding-kind.js";
export { OverlayInputs, overlayKind } from "./overlay-kind.js";
export { pruned } from "./pruned.js";
export {
  dockerConfigJson,
  PULL_TOKEN_DEFAULT_ROLE,
  PULL_TOKEN_DEFAULT_TTL,
  PULL_TOKEN_ISSUER,
  PullTokenInputs,
  pullTokenKind,
} from "./pull-token-kind.js";
export { RepoInputs, repoKind } from "./repo-kind.js";
export { roleBindingKind } from "./role-binding-kind.js";
export { roleKind } from "./role-kind.js";
export { SubscriptionInputs, subscriptionKind } from "./subscription-kind.js";
export { TagInputs, tagKind } from "./tag-kind.js";
