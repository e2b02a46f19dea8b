import { z } from "zod";

/**
 * One row of the capability table: the display name users write (`groups.list`, the `(name)` option
 * of the published enum value, as the service's CLI and the Terraform provider show it), the enum
 * value name the API's JSON carries (`CAP_IAM_GROUPS_LIST`) and its number (protojson also reads
 * numbers).
 *
 * @example
 * const row: CapabilityRow = { name: "groups.list", wire: "CAP_IAM_GROUPS_LIST", number: 103 };
 */
export interface CapabilityRow {
  readonly name: string;
  readonly wire: string;
  readonly number: number;
}

/**
 * The capabilities of the families this package manages, from the published enum
 * `chainguard.capabilities.Capability` (`proto/capabilities/capabilities.proto:26-279`). Invites
 * have no update capability (they are never updated).
 *
 * @example
 * CAPABILITY_TABLE.find((c) => c.name === "role_bindings.create")?.wire; // "CAP_IAM_ROLE_BINDINGS_CREATE"
 */
export const CAPABILITY_TABLE = [
  { name: "groups.create", wire: "CAP_IAM_GROUPS_CREATE", number: 101 },
  { name: "groups.update", wire: "CAP_IAM_GROUPS_UPDATE", number: 102 },
  { name: "groups.list", wire: "CAP_IAM_GROUPS_LIST", number: 103 },
  { name: "groups.delete", wire: "CAP_IAM_GROUPS_DELETE", number: 104 },
  { name: "group_invites.create", wire: "CAP_IAM_GROUP_INVITES_CREATE", number: 201 },
  { name: "group_invites.list", wire: "CAP_IAM_GROUP_INVITES_LIST", number: 203 },
  { name: "group_invites.delete", wire: "CAP_IAM_GROUP_INVITES_DELETE", number: 204 },
  { name: "roles.create", wire: "CAP_IAM_ROLES_CREATE", number: 301 },
  { name: "roles.update", wire: "CAP_IAM_ROLES_UPDATE", number: 302 },
  { name: "roles.list", wire: "CAP_IAM_ROLES_LIST", number: 303 },
  { name: "roles.delete", wire: "CAP_IAM_ROLES_DELETE", number: 304 },
  { name: "role_bindings.create", wire: "CAP_IAM_ROLE_BINDINGS_CREATE", number: 401 },
  { name: "role_bindings.update", wire: "CAP_IAM_ROLE_BINDINGS_UPDATE", number: 402 },
  { name: "role_bindings.list", wire: "CAP_IAM_ROLE_BINDINGS_LIST", number: 403 },
  { name: "role_bindings.delete", wire: "CAP_IAM_ROLE_BINDINGS_DELETE", number: 404 },
  { name: "account_associations.create", wire: "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE", number: 701 },
  { name: "account_associations.update", wire: "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE", number: 702 },
  { name: "account_associations.list", wire: "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST", number: 703 },
  { name: "account_associations.delete", wire: "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE", number: 704 },
  { name: "identity.create", wire: "CAP_IAM_IDENTITY_CREATE", number: 901 },
  { name: "identity.update", wire: "CAP_IAM_IDENTITY_UPDATE", number: 902 },
  { name: "identity.list", wire: "CAP_IAM_IDENTITY_LIST", number: 903 },
  { name: "identity.delete", wire: "CAP_IAM_IDENTITY_DELETE", number: 904 },
  { name: "identity_providers.create", wire: "CAP_IAM_IDENTITY_PROVIDERS_CREATE", number: 1301 },
  { name: "identity_providers.update", wire: "CAP_IAM_IDENTITY_PROVIDERS_UPDATE", number: 1302 },
  { name: "identity_providers.list", wire: "CAP_IAM_IDENTITY_PROVIDERS_LIST", number: 1303 },
  { name: "identity_providers.delete", wire: "CAP_IAM_IDENTITY_PROVIDERS_DELETE", number: 1304 },
  { name: "identity_providers.scim.manage", wire: "CAP_IAM_SCIM_MANAGE", number: 1305 },
  { name: "subscriptions.create", wire: "CAP_EVENTS_SUBSCRIPTION_CREATE", number: 1501 },
  { name: "subscriptions.update", wire: "CAP_EVENTS_SUBSCRIPTION_UPDATE", number: 1502 },
  { name: "subscriptions.list", wire: "CAP_EVENTS_SUBSCRIPTION_LIST", number: 1503 },
  { name: "subscriptions.delete", wire: "CAP_EVENTS_SUBSCRIPTION_DELETE", number: 1504 },
  { name: "record_signatures.list", wire: "CAP_TENANT_RECORD_SIGNATURES_LIST", number: 623 },
  { name: "sboms.list", wire: "CAP_TENANT_SBOMS_LIST", number: 650 },
  { name: "vuln_reports.list", wire: "CAP_TENANT_VULN_REPORTS_LIST", number: 660 },
  { name: "repo.blobs.get", wire: "CAP_REPO_BLOBS_GET", number: 1600 },
  { name: "repo.create", wire: "CAP_REPO_CREATE", number: 1603 },
  { name: "repo.update", wire: "CAP_REPO_UPDATE", number: 1604 },
  { name: "repo.list", wire: "CAP_REPO_LIST", number: 1605 },
  { name: "repo.delete", wire: "CAP_REPO_DELETE", number: 1606 },
  { name: "tag.create", wire: "CAP_TAG_CREATE", number: 1611 },
  { name: "tag.update", wire: "CAP_TAG_UPDATE", number: 1612 },
  { name: "tag.list", wire: "CAP_TAG_LIST", number: 1613 },
  { name: "tag.delete", wire: "CAP_TAG_DELETE", number: 1614 },
  { name: "repo.internal.admin", wire: "CAP_REPO_INTERNAL_ADMIN", number: 1617 },
  { name: "manifest.create", wire: "CAP_MANIFEST_CREATE", number: 1607 },
  { name: "manifest.update", wire: "CAP_MANIFEST_UPDATE", number: 1608 },
  { name: "manifest.list", wire: "CAP_MANIFEST_LIST", number: 1609 },
  { name: "manifest.delete", wire: "CAP_MANIFEST_DELETE", number: 1610 },
  { name: "manifest.metadata.list", wire: "CAP_MANIFEST_METADATA_LIST", number: 1615 },
  { name: "referrers.list", wire: "CAP_REFERRERS_LIST", number: 1616 },
  { name: "apk.create", wire: "CAP_APK_CREATE", number: 1650 },
  { name: "apk.list", wire: "CAP_APK_LIST", number: 1652 },
  { name: "apk.delete", wire: "CAP_APK_DELETE", number: 1653 },
  { name: "version.list", wire: "CAP_VERSION_LIST", number: 1654 },
  { name: "apk.blobs.get", wire: "CAP_APK_BLOBS_GET", number: 1655 },
  { name: "registry.overlays.list", wire: "CAP_REGISTRY_OVERLAYS_LIST", number: 1688 },
  { name: "registry.overlays.edit", wire: "CAP_REGISTRY_OVERLAYS_EDIT", number: 1689 },
  { name: "advisories.list", wire: "CAP_ADVISORIES_LIST", number: 1902 },
] as const satisfies readonly CapabilityRow[];

/**
 * Every capability this package knows, by display name (`<family>.<verb>`). A role is a set of them;
 * every operation needs them at the group that governs it (a binding applies to its group and every
 * descendant). `list` covers Get and List. The published API has no route listing them: the list
 * ships here.
 *
 * @example
 * CAPABILITIES.includes("groups.create"); // true
 */
export const CAPABILITIES = CAPABILITY_TABLE.map((c) => c.name) as unknown as readonly [
  (typeof CAPABILITY_TABLE)[number]["name"],
  ...(typeof CAPABILITY_TABLE)[number]["name"][],
];

/**
 * One capability display name, validated against {@link CAPABILITIES}.
 *
 * @example
 * Capability.safeParse("groups.destroy").success; // false
 */
export const Capability = z.enum(CAPABILITIES, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a capability; known: ${CAPABILITIES.join(", ")}`,
});
/**
 * One capability display name.
 *
 * @example
 * const c: Capability = "role_bindings.create";
 */
export type Capability = z.infer<typeof Capability>;

const BY_NAME = new Map<string, CapabilityRow>(CAPABILITY_TABLE.map((c) => [c.name, c]));
const BY_WIRE = new Map<string | number, CapabilityRow>(
  CAPABILITY_TABLE.flatMap((c) => [
    [c.wire, c],
    [c.number, c],
  ]),
);

/**
 * The wire form of a capability: a display name becomes its enum value name; an enum value name is
 * kept as is (callers may write either).
 *
 * @example
 * toWireCapability("groups.list");         // "CAP_IAM_GROUPS_LIST"
 * toWireCapability("CAP_IAM_GROUPS_LIST"); // "CAP_IAM_GROUPS_LIST"
 */
export function toWireCapability(capability: string): string {
  return BY_NAME.get(capability)?.wire ?? capability;
}

/**
 * The display name of a capability read from the wire (an enum value name, or its number). One this
 * package does not know yet is kept as the server wrote it, so a newer server never fails a read.
 *
 * @example
 * fromWireCapability("CAP_IAM_GROUPS_LIST"); // "groups.list"
 * fromWireCapability(103);                   // "groups.list"
 * fromWireCapability("CAP_SOMETHING_NEW");   // "CAP_SOMETHING_NEW"
 */
export function fromWireCapability(capability: string | number): string {
  return BY_WIRE.get(capability)?.name ?? String(capability);
}

/**
 * Whether a wire value names a capability of {@link CAPABILITY_TABLE} (enum name or number).
 *
 * @example
 * isWireCapability("CAP_IAM_GROUPS_LIST"); // true
 * isWireCapability("groups.list");         // false: a display name is not the wire form
 */
export function isWireCapability(value: unknown): value is string | number {
  return (typeof value === "string" || typeof value === "number") && BY_WIRE.has(value);
}

/**
 * A capability as the API writes it (enum value name, or number), read as its display name.
 *
 * @example
 * z.array(WireCapability).parse(["CAP_IAM_GROUPS_LIST", 901]); // ["groups.list", "identity.create"]
 */
export const WireCapability = z.union([z.string(), z.number().int()]).transform(fromWireCapability);

const names = (pred: (c: string) => boolean): Capability[] => CAPABILITIES.filter(pred);
const set = (...parts: readonly (readonly Capability[])[]): Capability[] => {
  const held = new Set(parts.flat());
  return CAPABILITIES.filter((c) => held.has(c));
};

// The published bundles of `proto/capabilities/roles.go`, within the table.
const REGISTRY_PULL: readonly Capability[] = [
  "repo.blobs.get",
  "groups.list",
  "repo.list",
  "manifest.list",
  "referrers.list",
  "tag.list",
  "manifest.metadata.list",
  "record_signatures.list",
  "sboms.list",
  "vuln_reports.list",
]; // RegistryPullCaps, :250-264
const APK_PULL: readonly Capability[] = ["apk.blobs.get", "groups.list", "apk.list"]; // APKPullCaps, :296-300
const PULL_TOKEN_CREATOR: readonly Capability[] = [
  "role_bindings.create",
  "identity.create",
  "roles.list",
  "groups.list",
]; // PullTokenCreatorCaps, :284-292
const IAM_LIST =
  /^(groups|group_invites|roles|role_bindings|account_associations|identity|identity_providers)\.list$/;
// ConsoleViewerCaps (:16-86) within the table: every list and nothing that pulls.
const CONSOLE_VIEWER = names(
  (c) =>
    IAM_LIST.test(c) ||
    /^(repo|manifest|referrers|tag|manifest\.metadata|apk|version|advisories|record_signatures|sboms|vuln_reports|subscriptions|registry\.overlays)\.list$/.test(
      c,
    ),
);
const VIEWER = set(CONSOLE_VIEWER, REGISTRY_PULL, APK_PULL); // ViewerCaps, :90-95
// Capabilities the service keeps for its own identities (`internal_only` in the published enum):
// no built-in role a customer can bind holds them, owner included.
const INTERNAL_ONLY: ReadonlySet<string> = new Set(["repo.internal.admin"]);
// EditorCaps (:98-113) within the table: subscriptions and RegistryEditorCaps (repos, overlays).
const EDITOR_EXTRA: readonly Capability[] = [
  "subscriptions.create",
  "subscriptions.update",
  "subscriptions.delete",
  "repo.create",
  "repo.update",
  "repo.delete",
  "registry.overlays.list",
  "registry.overlays.edit",
];

/**
 * The names of the built-in roles this package knows, as the service lists them.
 *
 * @example
 * BUILT_IN_ROLE_NAMES.includes("registry.pull"); // true
 */
export const BUILT_IN_ROLE_NAMES = [
  "owner",
  "editor",
  "viewer",
  "limited_owner",
  "registry.pull",
  "registry.pull_token_creator",
  "apk.pull",
] as const;

/**
 * One built-in role name.
 *
 * @example
 * const r: BuiltInRoleName = "registry.pull";
 */
export type BuiltInRoleName = (typeof BUILT_IN_ROLE_NAMES)[number];

/**
 * The built-in roles' capabilities within {@link CAPABILITY_TABLE}, as published in
 * `proto/capabilities/roles.go` (docs/contract-decisions.md, "Built-in roles"): `viewer` reads
 * everything and pulls (`ViewerCaps`, `:90-95`); `editor` adds repo writes and nothing of IAM
 * (`EditorCaps` = `RegistryEditorCaps` + viewer, `:98-112`, `:239-248`); `owner` holds every one
 * (`OwnerCaps`, `:143-235`, with `RegistryPushCaps` and `APKPushCaps`); `registry.pull` is
 * `RegistryPullCaps`, `apk.pull` `APKPullCaps`, `registry.pull_token_creator`
 * `RegistryPullTokenCreatorCaps` (`:294`); `limited_owner` is the viewer plus creating identities and
 * role bindings (the service's built-in roles reference; no bundle of `roles.go` names it).
 *
 * @example
 * BUILT_IN_ROLE_CAPABILITIES.editor.includes("groups.create"); // false
 * BUILT_IN_ROLE_CAPABILITIES["registry.pull"].includes("repo.list"); // true
 */
export const BUILT_IN_ROLE_CAPABILITIES: Readonly<Record<BuiltInRoleName, readonly Capability[]>> = {
  owner: names((c) => !INTERNAL_ONLY.has(c)),
  editor: set(VIEWER, EDITOR_EXTRA),
  viewer: VIEWER,
  limited_owner: set(VIEWER, ["identity.create", "role_bindings.create"]),
  "registry.pull": set(REGISTRY_PULL),
  "registry.pull_token_creator": set(PULL_TOKEN_CREATOR, REGISTRY_PULL, APK_PULL),
  "apk.pull": set(APK_PULL),
};
