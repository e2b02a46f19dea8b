import type { z } from "zod";
import {
  ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS,
  AccountAssociations,
  AccountAssociationsCreate,
  encodeAccountAssociations,
} from "./account-association.js";
import { Advisory } from "./advisory.js";
import { ExternalGroupRoleMapping, ExternalGroupRoleMappingCreate } from "./external-group-role-mapping.js";
import { GROUP_MUTABLE_FIELDS, Group, GroupCreate } from "./group.js";
import { encodeGroupInvite, GroupInvite, GroupInviteCreate } from "./group-invite.js";
import { IDENTITY_MUTABLE_FIELDS, Identity, IdentityCreate } from "./identity.js";
import {
  IDENTITY_PROVIDER_MUTABLE_FIELDS,
  IdentityProvider,
  IdentityProviderCreate,
} from "./identity-provider.js";
import { Overlay, OverlayCreate } from "./overlay.js";
import { OverlayBinding, OverlayBindingCreate } from "./overlay-binding.js";
import { REPO_MUTABLE_FIELDS, Repo, RepoCreate, Tag, TagCreate } from "./registry.js";
import { encodeRole, ROLE_MUTABLE_FIELDS, Role, RoleCreate } from "./role.js";
import { ROLE_BINDING_MUTABLE_FIELDS, RoleBinding, RoleBindingCreate } from "./role-binding.js";
import { Subscription, SubscriptionCreate } from "./subscription.js";

/**
 * The API versions this package speaks: `v2`, the service at general availability (the default),
 * and `v2beta1`, the same messages on the beta paths. `irv:apiVersion` / `IRV_API_VERSION` chooses.
 *
 * @example
 * const version: ApiVersion = "v2";
 */
export type ApiVersion = "v2" | "v2beta1";

/**
 * Every API version, the default first.
 *
 * @example
 * API_VERSIONS.includes("v2beta1"); // true
 */
export const API_VERSIONS: readonly ApiVersion[] = ["v2", "v2beta1"];

/**
 * Describes one resource kind of the API: where it lives and what its wire shapes are.
 *
 * @example
 * const spec: KindSpec = KINDS.identities;
 * collectionPath(spec, "v2beta1"); // "/iam/v2beta1/identities"
 */
export interface KindSpec<
  T extends z.ZodType = z.ZodType,
  C extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** API prefix segment: `iam`, `registry`, `events` or `vulnerabilities`. */
  domain: "iam" | "registry" | "events" | "vulnerabilities";
  /** Collection segment of the path, also the list envelope key. */
  collection: string;
  /** Human name, singular, for messages. */
  singular: string;
  /** Schema of the resource as returned. */
  schema: T;
  /** Schema of a create body, when the API creates this kind. */
  create: C;
  /** PATCH paths that may be set; empty for read-only kinds. */
  mutable: readonly string[];
  /**
   * What a create names in its path: a group, a repo (tags, overlay bindings) or an identity
   * provider (external group role mappings). Role uids stay flat all the same.
   */
  parent: "group" | "repo" | "identityProvider";
  /**
   * Served on the beta paths only, whatever the version asked for: the published definitions have
   * no GA copy of it yet (overlays and overlay bindings).
   */
  betaOnly?: boolean | undefined;
  /**
   * Whether the API writes this kind (false: List/Get only). A kind with no update rpc has no
   * `mutable` fields.
   */
  writable: boolean;
  /**
   * The wire form of a create or update body, when it differs from what callers write (capability
   * display names become the published enum names, say). Absent: sent as given.
   */
  encode?: ((body: Record<string, unknown>) => Record<string, unknown>) | undefined;
}

const kind = <T extends z.ZodType, C extends z.ZodType | undefined>(k: KindSpec<T, C>) => k;

/**
 * Every resource kind of the v2beta1 API. The client and the emulator are both built from this
 * table, so a path or a shape is written once.
 *
 * @example
 * KINDS.groups.collection;            // "groups"
 * collectionPath(KINDS.repos, "v2");  // "/registry/v2/repos"
 */
export const KINDS = {
  groups: kind({
    domain: "iam",
    collection: "groups",
    singular: "group",
    schema: Group,
    create: GroupCreate,
    mutable: GROUP_MUTABLE_FIELDS,
    parent: "group",
    writable: true,
  }),
  identities: kind({
    domain: "iam",
    collection: "identities",
    singular: "identity",
    schema: Identity,
    create: IdentityCreate,
    mutable: IDENTITY_MUTABLE_FIELDS,
    parent: "group",
    writable: true,
  }),
  roles: kind({
    domain: "iam",
    collection: "roles",
    singular: "role",
    schema: Role,
    create: RoleCreate,
    mutable: ROLE_MUTABLE_FIELDS,
    parent: "group",
    writable: true,
    encode: encodeRole,
  }),
  roleBindings: kind({
    domain: "iam",
    collection: "roleBindings",
    singular: "role binding",
    schema: RoleBinding,
    create: RoleBindingCreate,
    mutable: ROLE_BINDING_MUTABLE_FIELDS,
    parent: "group",
    writable: true,
  }),
  identityProviders: kind({
    domain: "iam",
    collection: "identityProviders",
    singular: "identity provider",
    schema: IdentityProvider,
    create: IdentityProviderCreate,
    mutable: IDENTITY_PROVIDER_MUTABLE_FIELDS,
    parent: "group",
    writable: true,
  }),
  accountAssociations: kind({
    domain: "iam",
    collection: "accountAssociations",
    singular: "account association",
    schema: AccountAssociations,
    create: AccountAssociationsCreate,
    mutable: ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS,
    parent: "group",
    writable: true,
    encode: encodeAccountAssociations,
  }),
  groupInvites: kind({
    domain: "iam",
    collection: "groupInvites",
    singular: "group invite",
    schema: GroupInvite,
    create: GroupInviteCreate,
    mutable: [],
    parent: "group",
    writable: true,
    encode: encodeGroupInvite,
  }),
  externalGroupRoleMappings: kind({
    domain: "iam",
    collection: "externalGroupRoleMappings",
    singular: "external group role mapping",
    schema: ExternalGroupRoleMapping,
    create: ExternalGroupRoleMappingCreate,
    mutable: [],
    parent: "identityProvider",
    writable: true,
  }),
  repos: kind({
    domain: "registry",
    collection: "repos",
    singular: "repo",
    schema: Repo,
    create: RepoCreate,
    mutable: REPO_MUTABLE_FIELDS,
    parent: "group",
    writable: true,
  }),
  tags: kind({
    domain: "registry",
    collection: "tags",
    singular: "tag",
    schema: Tag,
    create: TagCreate,
    mutable: [],
    parent: "repo",
    writable: true,
  }),
  overlays: kind({
    domain: "registry",
    collection: "overlays",
    singular: "overlay",
    schema: Overlay,
    create: OverlayCreate,
    mutable: [],
    parent: "group",
    writable: true,
    betaOnly: true,
  }),
  overlayBindings: kind({
    domain: "registry",
    collection: "overlayBindings",
    singular: "overlay binding",
    schema: OverlayBinding,
    create: OverlayBindingCreate,
    mutable: [],
    parent: "repo",
    writable: true,
    betaOnly: true,
  }),
  subscriptions: kind({
    domain: "events",
    collection: "subscriptions",
    singular: "subscription",
    schema: Subscription,
    create: SubscriptionCreate,
    mutable: [],
    parent: "group",
    writable: true,
  }),
  advisories: kind({
    domain: "vulnerabilities",
    collection: "advisories",
    singular: "advisory",
    schema: Advisory,
    create: undefined,
    mutable: [],
    parent: "group",
    writable: false,
  }),
} as const;

/**
 * Name of a kind in {@link KINDS}.
 *
 * @example
 * const kind: KindName = "roleBindings";
 * KINDS[kind].singular; // "role binding"
 */
export type KindName = keyof typeof KINDS;

/**
 * The version a kind is served at when `version` is asked for: its own beta paths when it has no GA
 * copy.
 *
 * @example
 * servedVersion(KINDS.overlays, "v2"); // "v2beta1"
 */
export function servedVersion(k: Pick<KindSpec, "betaOnly">, version: ApiVersion): ApiVersion {
  return k.betaOnly ? "v2beta1" : version;
}

/**
 * The path of a kind's collection at an API version, relative to the base URL.
 *
 * @example
 * collectionPath(KINDS.groups, "v2");      // "/iam/v2/groups"
 * collectionPath(KINDS.groups, "v2beta1"); // "/iam/v2beta1/groups"
 * collectionPath(KINDS.overlays, "v2");    // "/registry/v2beta1/overlays"
 */
export function collectionPath(
  k: Pick<KindSpec, "domain" | "collection" | "betaOnly">,
  version: ApiVersion,
): string {
  return `/${k.domain}/${servedVersion(k, version)}/${k.collection}`;
}
