import type { StubType } from "../../stub/index.js";
import type { AnyKind } from "../kind-definition.js";
import { accountAssociationsKind } from "./account-associations-kind.js";
import { groupInviteKind } from "./group-invite-kind.js";
import { groupKind } from "./group-kind.js";
import { identityKind } from "./identity-kind.js";
import { identityProviderKind } from "./identity-provider-kind.js";
import { pullTokenKind } from "./pull-token-kind.js";
import { roleBindingKind } from "./role-binding-kind.js";
import { roleKind } from "./role-kind.js";

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
};

export { accountAssociationsKind } from "./account-associations-kind.js";
export type { DeleteGroupOptions } from "./delete-group.js";
export { deleteGroup } from "./delete-group.js";
export { durationMs, groupInviteKind } from "./group-invite-kind.js";
export { groupKind } from "./group-kind.js";
export { identityKind } from "./identity-kind.js";
export { identityProviderKind } from "./identity-provider-kind.js";
export {
  dockerConfigJson,
  PULL_TOKEN_DEFAULT_ROLE,
  PULL_TOKEN_DEFAULT_TTL,
  PULL_TOKEN_ISSUER,
  PullTokenInputs,
  pullTokenKind,
} from "./pull-token-kind.js";
export { roleBindingKind } from "./role-binding-kind.js";
export { roleKind } from "./role-kind.js";
