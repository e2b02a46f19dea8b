import type { ApiVersion, Capability, KindName, KindSpec } from "pulumi-irv/sdk";
import {
  API_VERSIONS,
  GROUP_NAME_PATTERN_SOURCE,
  KINDS,
  RoleBindingCreateSchema,
  servedVersion,
} from "pulumi-irv/sdk";
import type { z } from "zod";
import type { ListFilterParam } from "../lists/index.js";
import { ACCOUNT_ASSOCIATIONS_HOOKS } from "./account-associations.js";
import { ADVISORY_HOOKS } from "./advisories.js";
import { MAPPING_HOOKS } from "./external-group-role-mappings.js";
import { GROUP_INVITE_HOOKS } from "./group-invites.js";
import { groupHooks } from "./groups.js";
import { IDENTITY_HOOKS, withKeysExpiration } from "./identities.js";
import { IDENTITY_PROVIDER_HOOKS } from "./identity-providers.js";
import type { KindHooks } from "./kind-context.js";
import { OVERLAY_BINDING_HOOKS } from "./overlay-bindings.js";
import { OVERLAY_HOOKS } from "./overlays.js";
import { REPO_HOOKS } from "./repos.js";
import { ROLE_BINDING_HOOKS } from "./role-bindings.js";
import { ROLE_HOOKS } from "./roles.js";
import { SUBSCRIPTION_HOOKS } from "./subscriptions.js";
import { TAG_HOOKS } from "./tags.js";

/**
 * The capability family of a kind: its capabilities are `<family>.list|create|update|delete`.
 *
 * @example
 * const f: CapabilityFamily = "role_bindings";
 */
export type CapabilityFamily = Capability extends `${infer F}.${string}` ? F : never;

/**
 * How the emulator treats one kind of the sdk's `KINDS`: nesting, capabilities, validation, hidden
 * fields and the kind's own behaviour ({@link KindHooks}). Adding a kind is one entry here (plus a
 * hooks file when it has behaviour of its own).
 *
 * @example
 * const rules: KindRules = KIND_RULES.identities;
 * rules.family; // "identity": needs identity.create to create one
 */
export interface KindRules {
  name: KindName;
  spec: KindSpec;
  /**
   * How many uid segments up the governing group is: 0 for groups (a group governs itself), 1 for
   * the direct children of a group, 2 for tags (group/repo/tag); `undefined` for roles, whose flat
   * uid says nothing: their row's group governs them.
   */
  scopeDepth: number | undefined;
  /**
   * The API versions the kind is served at, from one store: every one of the sdk's, but v2beta1
   * only for a kind with no GA definition (the sdk's `betaOnly`: overlays and overlay bindings).
   */
  versions: readonly ApiVersion[];
  /** The kind a create's parent uid must name. */
  parentKind: "groups" | "repos" | "identityProviders";
  /**
   * The writes the published service offers for the kind (its Create, Update and Delete rpcs): from
   * the sdk's kind ({@link writesOf}).
   */
  writes: readonly WriteVerb[];
  /** The capability family: `<family>.list` reads, `<family>.create` creates… */
  family: CapabilityFamily;
  /**
   * The capability of a verb where it is not `<family>.<verb>` (overlays: `registry.overlays.edit`
   * creates and deletes; mappings: identity providers' capabilities).
   */
  verbCapabilities: Readonly<Partial<Record<"list" | WriteVerb, Capability>>>;
  /**
   * Whether a create refuses a key its schema does not know (code 3 naming it), where the gateway
   * would drop it: for the kinds whose fields are easy to misspell on the wire (`sync_config`).
   */
  strictCreate: boolean;
  /**
   * Whether a create of a name the parent already has updates that resource (same uid) instead of
   * refusing ALREADY_EXISTS: tags, whose published Create "creates (or updates)".
   */
  upsertByName: boolean;
  /**
   * Capabilities a write needs besides its family's, at the same group: the published definitions
   * list two for some methods (an invite or an identity provider grants a role, so it also needs
   * `role_bindings.create`).
   */
  alsoNeeds: Readonly<Partial<Record<"create" | "update" | "delete", readonly Capability[]>>>;
  /**
   * One per parent group, with the group's uid as its own (account associations): a create makes
   * the group's one, a second is ALREADY_EXISTS, and `uidp.descendants_of` includes the group's own.
   */
  uidIsParent: boolean;
  /** Whether two siblings of this kind may share a name (and whether the kind has one at all). */
  uniqueNames: boolean;
  /**
   * The field that plays the part of a name: the row's name column, held unique among siblings and
   * sorted by `order_by=name` (`advisoryId` for advisories, which have no name).
   */
  nameField: string;
  /**
   * Whether the `name` list parameter filters this kind. Where the published List request has no
   * `name` (advisories, `vulnerabilities/v2beta1/advisories.proto:355-448`) the gateway ignores it,
   * and so does the emulator.
   */
  nameFilter: boolean;
  /** The kind's own list filters beyond scoping and `name` (advisories: `advisory_ids`, `aliases`). */
  listFilters: readonly ListFilterParam[];
  /** The rule the mutable fields must satisfy after an update. */
  validate: z.ZodType | undefined;
  /** Extra words for a violation of a field, e.g. the name pattern. */
  hints: Readonly<Record<string, string>>;
  /** Mask paths that can never be cleared. */
  required: readonly string[];
  /** Dotted paths accepted on write and never answered (credentials). */
  writeOnly: readonly string[];
  /** Dotted paths of free-form maps and lists, held to the free-form limits (depth, size, keys). */
  freeForm: readonly string[];
  /** Top-level fields answered by the create only, never stored (one-time codes). */
  onceOnly: readonly string[];
  /** Fields the service sets on a new resource. */
  serviceFields(now: string, fields: Record<string, unknown>): Record<string, unknown>;
  /**
   * What the answer holds for a field that is not set: grpc-gateway writes every field (protojson
   * `EmitUnpopulated`), an unset string as `""`, an unset message as `null`, an unset list as `[]`.
   * A dotted path fills a field of a nested message when that message is present.
   */
  unpopulated: Readonly<Record<string, unknown>>;
  hooks: KindHooks;
}

/**
 * A write the API may offer for a kind.
 *
 * @example
 * const v: WriteVerb = "delete";
 */
export type WriteVerb = "create" | "update" | "delete";

const ALL_WRITES: readonly WriteVerb[] = ["create", "update", "delete"];

/**
 * The writes a kind's published service offers, as the sdk's kind says them: none for a read-only
 * kind; no update for one with no field to update (its service has no Update rpc).
 *
 * @example
 * writesOf(KINDS.tags); // ["create", "delete"]
 */
function writesOf(spec: Pick<KindSpec, "writable" | "mutable">): readonly WriteVerb[] {
  if (!spec.writable) return [];
  return spec.mutable.length > 0 ? ALL_WRITES : ALL_WRITES.filter((v) => v !== "update");
}

const NAME_HINT = { name: `must match the pattern ${GROUP_NAME_PATTERN_SOURCE}` };
const NONE = () => ({});

const iamChild = (
  name: KindName,
  family: CapabilityFamily,
  more: Partial<Omit<KindRules, "name" | "spec">> = {},
): KindRules => ({
  name,
  spec: KINDS[name],
  scopeDepth: 1,
  versions: API_VERSIONS.filter((v) => servedVersion(KINDS[name], v) === v),
  parentKind: "groups",
  writes: writesOf(KINDS[name]),
  family,
  verbCapabilities: {},
  strictCreate: false,
  upsertByName: false,
  alsoNeeds: {},
  uidIsParent: false,
  uniqueNames: true,
  nameField: "name",
  nameFilter: true,
  listFilters: [],
  validate: KINDS[name].create,
  hints: {},
  required: ["name"],
  writeOnly: [],
  freeForm: [],
  onceOnly: [],
  serviceFields: NONE,
  unpopulated: {},
  hooks: {},
  ...more,
});

const readOnly = (
  name: KindName,
  family: CapabilityFamily,
  scopeDepth: number,
  parentKind: "groups" | "repos",
): KindRules => iamChild(name, family, { scopeDepth, parentKind, validate: undefined, required: [] });

/**
 * The rules of every kind, by kind name.
 *
 * @example
 * KIND_RULES.tags.scopeDepth; // 2: a tag's permissions are its group's (group/repo/tag)
 */
export const KIND_RULES: Readonly<Record<KindName, KindRules>> = {
  groups: iamChild("groups", "groups", {
    scopeDepth: 0,
    hints: NAME_HINT,
    serviceFields: () => ({ resourceLimits: {}, verified: false }),
    unpopulated: { description: "" },
    // Looked up when a delete runs, once the table below exists.
    hooks: groupHooks((kind) => {
      const r = KIND_RULES[kind as KindName];
      return r === undefined ? undefined : { singular: r.spec.singular, hooks: r.hooks };
    }),
  }),
  identities: iamChild("identities", "identity", {
    // The spec speaks here ("present in the create response", api-v2beta1.md, Identity), so it wins
    // over the published `null` of a never-federated identity (identities.proto:206); clients read
    // both (OptionalTimestamp).
    // Static keys' default expiration counts from the createTime itself (the same clock reading).
    serviceFields: (now, fields) => ({
      lastSeenTime: now,
      ...(fields.staticKeys === undefined
        ? {}
        : withKeysExpiration({ staticKeys: fields.staticKeys }, Date.parse(now), Date.parse(now))),
    }),
    freeForm: ["claimMatch.claims", "claimMatch.claimPatterns"],
    hooks: IDENTITY_HOOKS,
  }),
  roles: iamChild("roles", "roles", {
    scopeDepth: undefined,
    unpopulated: { description: "" },
    hooks: ROLE_HOOKS,
  }),
  roleBindings: iamChild("roleBindings", "role_bindings", {
    uniqueNames: false,
    validate: RoleBindingCreateSchema,
    required: ["identityUid", "roleUid"],
    hooks: ROLE_BINDING_HOOKS,
  }),
  identityProviders: iamChild("identityProviders", "identity_providers", {
    // Published identity_providers.proto:70-77 (create) and :102-109 (update).
    alsoNeeds: { create: ["role_bindings.create"], update: ["role_bindings.create"] },
    writeOnly: ["oidc.clientSecret"],
    // `scim` is an output-only message (identity_providers.proto:322): null until SCIM is set up.
    unpopulated: {
      description: "",
      defaultRole: "",
      scim: null,
      "oidc.additionalScopes": [],
      "oidc.groupsClaim": "",
      "oidc.correlationRule": "CORRELATION_RULE_UNSPECIFIED",
      "oidc.pkceEnabled": false,
    },
    // `default_role` is REQUIRED (identity_providers.proto), so it cannot be cleared either. The
    // client secret can (a public, PKCE-only client), as long as `pkceEnabled` is set: the create
    // schema's rule, checked after every update.
    required: ["name", "defaultRole", "oidc", "oidc.issuer", "oidc.clientId"],
    hooks: IDENTITY_PROVIDER_HOOKS,
  }),
  accountAssociations: iamChild("accountAssociations", "account_associations", {
    // The uid is the group's (account_associations.proto:166-167): the group governs it as itself.
    scopeDepth: 0,
    uidIsParent: true,
    uniqueNames: false,
    freeForm: ["azure.clientIds", "github.appInstallations", "chainguard.serviceBindings"],
    hooks: ACCOUNT_ASSOCIATIONS_HOOKS,
  }),
  groupInvites: iamChild("groupInvites", "group_invites", {
    // No Update rpc: a PATCH is a wrong method on a known collection (405, code 12, with Allow), as
    // for tags, overlays, bindings, subscriptions and mappings: the gateway routes no PATCH there.
    // Published group_invites.proto:35-39: an invite is a future role binding.
    alsoNeeds: { create: ["role_bindings.create"] },
    uniqueNames: false,
    required: [],
    onceOnly: ["code"],
    hooks: GROUP_INVITE_HOOKS,
  }),
  externalGroupRoleMappings: iamChild("externalGroupRoleMappings", "identity_providers", {
    // group/identityProvider/mapping: the identity provider's group governs it.
    scopeDepth: 2,
    parentKind: "identityProviders",
    // Published external_group_role_mappings.proto: Create needs both capabilities, Delete and
    // BatchDelete the identity providers' delete, reads their list.
    alsoNeeds: { create: ["role_bindings.create"] },
    uniqueNames: false,
    nameField: "externalGroupId",
    nameFilter: false,
    listFilters: [{ names: ["identity_provider_uid", "identityProviderUid"], field: "identityProviderUid" }],
    required: [],
    strictCreate: true,
    hooks: MAPPING_HOOKS,
  }),
  repos: iamChild("repos", "repo", {
    hints: { syncConfig: "the field is sync_config (its published json_name), not syncConfig" },
    // Checked by the hooks: a stored sync_config holds the service's fields the create body refuses.
    validate: undefined,
    strictCreate: true,
    hooks: REPO_HOOKS,
  }),
  tags: iamChild("tags", "tag", {
    scopeDepth: 2,
    parentKind: "repos",
    validate: undefined,
    required: [],
    strictCreate: true,
    upsertByName: true,
    hooks: TAG_HOOKS,
  }),
  overlays: iamChild("overlays", "registry", {
    verbCapabilities: {
      list: "registry.overlays.list",
      create: "registry.overlays.edit",
      delete: "registry.overlays.edit",
    },
    strictCreate: true,
    hooks: OVERLAY_HOOKS,
  }),
  overlayBindings: iamChild("overlayBindings", "registry", {
    scopeDepth: 2,
    parentKind: "repos",
    verbCapabilities: {
      list: "registry.overlays.list",
      create: "registry.overlays.edit",
      delete: "registry.overlays.edit",
    },
    uniqueNames: false,
    nameFilter: false,
    listFilters: [{ names: ["overlay"], field: "overlay.uid" }],
    required: [],
    strictCreate: true,
    hooks: OVERLAY_BINDING_HOOKS,
  }),
  subscriptions: iamChild("subscriptions", "subscriptions", {
    uniqueNames: false,
    nameField: "sink",
    nameFilter: false,
    required: [],
    strictCreate: true,
    hooks: SUBSCRIPTION_HOOKS,
  }),
  advisories: {
    ...readOnly("advisories", "advisories", 1, "groups"),
    nameField: "advisoryId",
    nameFilter: false,
    // The published request's repeated filters (advisories.proto:360, :379): any of the values.
    listFilters: [
      { names: ["advisory_ids", "advisoryIds"], field: "advisoryId" },
      { names: ["aliases"], field: "aliases" },
    ],
    hooks: ADVISORY_HOOKS,
  },
};

/**
 * The kinds by collection name (the path segment).
 *
 * @example
 * RULES_BY_COLLECTION.get("roleBindings")?.name; // "roleBindings"
 */
export const RULES_BY_COLLECTION: ReadonlyMap<string, KindRules> = new Map(
  Object.values(KIND_RULES).map((r) => [r.spec.collection, r]),
);

/**
 * Every capability a write on a kind needs: its family's, then what the kind adds.
 *
 * @example
 * capabilitiesFor(KIND_RULES.groupInvites, "create"); // ["group_invites.create", "role_bindings.create"]
 */
export function capabilitiesFor(rules: KindRules, verb: WriteVerb): Capability[] {
  return [capabilityFor(rules, verb), ...(rules.alsoNeeds[verb] ?? [])];
}

/**
 * The capability an operation on a kind needs.
 *
 * @example
 * capabilityFor(KIND_RULES.roleBindings, "create"); // "role_bindings.create"
 */
export function capabilityFor(rules: KindRules, verb: "list" | WriteVerb): Capability {
  return rules.verbCapabilities[verb] ?? (`${rules.family}.${verb}` as Capability);
}
