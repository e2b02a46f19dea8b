import type { z } from "zod";
import {
  ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS,
  AccountAssociations,
  AccountAssociationsCreate,
  encodeAccountAssociations,
} from "./account-association.js";
import { Advisory } from "./advisory.js";
import { GROUP_MUTABLE_FIELDS, Group, GroupCreate } from "./group.js";
import { encodeGroupInvite, GroupInvite, GroupInviteCreate } from "./group-invite.js";
import { IDENTITY_MUTABLE_FIELDS, Identity, IdentityCreate } from "./identity.js";
import {
  IDENTITY_PROVIDER_MUTABLE_FIELDS,
  IdentityProvider,
  IdentityProviderCreate,
} from "./identity-provider.js";
import { Repo, Tag } from "./registry.js";
import { encodeRole, ROLE_MUTABLE_FIELDS, Role, RoleCreate } from "./role.js";
import { ROLE_BINDING_MUTABLE_FIELDS, RoleBinding, RoleBindingCreate } from "./role-binding.js";

/**
 * Describes one resource kind of the API: where it lives and what its wire shapes are.
 *
 * @example
 * const spec: KindSpec = KINDS.identities;
 * collectionPath(spec); // "/iam/v2beta1/identities"
 */
export interface KindSpec<
  T extends z.ZodType = z.ZodType,
  C extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** API prefix segment: `iam`, `registry` or `vulnerabilities`. */
  domain: "iam" | "registry" | "vulnerabilities";
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
  /** What a create names in its path: a group, or a repo (tags). Role uids stay flat all the same. */
  parent: "group" | "repo";
  /** Whether the API creates, updates and deletes this kind (false: List/Get only). */
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
 * KINDS.groups.collection;      // "groups"
 * collectionPath(KINDS.repos);  // "/registry/v2beta1/repos"
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
  repos: kind({
    domain: "registry",
    collection: "repos",
    singular: "repo",
    schema: Repo,
    create: undefined,
    mutable: [],
    parent: "group",
    writable: false,
  }),
  tags: kind({
    domain: "registry",
    collection: "tags",
    singular: "tag",
    schema: Tag,
    create: undefined,
    mutable: [],
    parent: "repo",
    writable: false,
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
 * The path of a kind's collection, relative to the base URL.
 *
 * @example
 * collectionPath(KINDS.groups); // "/iam/v2beta1/groups"
 */
export function collectionPath(k: Pick<KindSpec, "domain" | "collection">): string {
  return `/${k.domain}/v2beta1/${k.collection}`;
}
