// Facts about the service's published v2beta1 wire format, kept by hand from the protobuf
// definitions of `chainguard-dev/sdk` at commit 934f495 (each with its file and lines), as the JSON
// names protojson writes. Not a copy of the definitions: only what the conformance tests compare.
// `iam/` = proto/chainguard/platform/iam/v2beta1/, `reg/` = …/registry/v2beta1/,
// `vuln/` = …/vulnerabilities/v2beta1/.

/** The JSON field names of one published message. */
export interface MessageFacts {
  /** File and lines of the message. */
  source: string;
  fields: readonly string[];
  /** Fields a request may carry (the rest are output only). */
  input?: readonly string[];
}

/**
 * Published messages by name.
 *
 * @example
 * PUBLISHED.Group.fields.includes("verified"); // true
 */
export const PUBLISHED = {
  Group: {
    source: "iam/groups.proto:209-252",
    fields: [
      "uid",
      "name",
      "description",
      "resourceLimits",
      "verified",
      "createTime",
      "updateTime",
      "kind",
      "status",
    ],
    input: ["name", "description"],
  },
  Identity: {
    source: "iam/identities.proto:171-227",
    fields: [
      "uid",
      "name",
      "description",
      "email",
      "emailUnverified",
      "company",
      "lastSeenTime",
      "createTime",
      "updateTime",
      "claimMatch",
      "staticKeys",
      "awsIdentity",
      "servicePrincipal",
    ],
    input: ["name", "description", "claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"],
  },
  "Identity.ClaimMatch": {
    source: "iam/identities.proto:235-261",
    fields: [
      "issuer",
      "issuerPattern",
      "subject",
      "subjectPattern",
      "audience",
      "audiencePattern",
      "claims",
      "claimPatterns",
    ],
  },
  "Identity.StaticKeys": {
    source: "iam/identities.proto:266-287",
    fields: ["issuer", "subject", "issuerKeys", "expirationTime", "audiences"],
  },
  "Identity.AWSIdentity": {
    source: "iam/identities.proto:290-309",
    fields: ["awsAccount", "arn", "arnPattern", "userId", "userIdPattern"],
  },
  Role: {
    source: "iam/roles.proto:142-172",
    fields: ["uid", "name", "description", "capabilities", "createTime", "updateTime"],
    input: ["name", "description", "capabilities"],
  },
  RoleBinding: {
    source: "iam/role_bindings.proto:166-202",
    fields: ["uid", "identity", "group", "role", "createTime", "identityUid", "roleUid"],
    input: ["identityUid", "roleUid"],
  },
  "RoleBinding.identity": {
    source: "iam/role_bindings.proto:207-225",
    fields: ["uid", "name", "description", "subject", "issuer", "email"],
  },
  IdentityProvider: {
    source: "iam/identity_providers.proto:271-322",
    fields: ["uid", "name", "description", "createTime", "updateTime", "defaultRole", "oidc", "scim"],
    input: ["name", "description", "defaultRole", "oidc"],
  },
  "IdentityProvider.OIDC": {
    source: "iam/identity_providers.proto:325-400",
    fields: [
      "issuer",
      "clientId",
      "clientSecret",
      "additionalScopes",
      "groupsClaim",
      "correlationRule",
      "pkceEnabled",
    ],
  },
  AccountAssociations: {
    source: "iam/account_associations.proto:158-200",
    fields: [
      "uid",
      "name",
      "description",
      "amazon",
      "google",
      "chainguard",
      "azure",
      "createTime",
      "updateTime",
      "github",
    ],
    input: ["name", "description", "amazon", "google", "chainguard", "azure", "github"],
  },
  GroupInvite: {
    source: "iam/group_invites.proto:115-163",
    fields: [
      "uid",
      "roleUid",
      "role",
      "email",
      "ttl",
      "expirationTime",
      "singleUse",
      "code",
      "keyId",
      "createTime",
    ],
    input: ["roleUid", "email", "ttl", "singleUse"],
  },
  "GroupInvite.role": {
    source: "iam/group_invites.proto:167-176",
    fields: ["uid", "name", "description", "capabilities"],
  },
  "AccountAssociations.Amazon": { source: "iam/account_associations.proto:203-206", fields: ["account"] },
  "AccountAssociations.Google": {
    source: "iam/account_associations.proto:209-214",
    fields: ["projectId", "projectNumber"],
  },
  "AccountAssociations.GitHub": {
    // A map keyed by GitHub App id (int64, a decimal string in JSON).
    source: "iam/account_associations.proto:217-221",
    fields: ["appInstallations"],
  },
  "AccountAssociations.GitHubAppInstallations": {
    source: "iam/account_associations.proto:224-227",
    fields: ["installations"],
  },
  "AccountAssociations.GitHubInstallation": {
    // installationId is an int64: a decimal string in JSON.
    source: "iam/account_associations.proto:230-236",
    fields: ["installationId", "name"],
  },
  "AccountAssociations.Chainguard": {
    // A map from service principal name to identity uid.
    source: "iam/account_associations.proto:239-243",
    fields: ["serviceBindings"],
  },
  "AccountAssociations.Azure": {
    // clientIds: a map from component name to client id.
    source: "iam/account_associations.proto:246-251",
    fields: ["tenantId", "clientIds"],
  },
  Repo: {
    source: "reg/repos.proto:182-245",
    fields: [
      "uid",
      "name",
      "description",
      "catalogTier",
      "bundles",
      "aliases",
      "activeTags",
      "sync_config",
      "customOverlay",
      "createTime",
      "updateTime",
    ],
    // Every field not OUTPUT_ONLY (reg/repos.proto, message Repo).
    input: [
      "name",
      "description",
      "catalogTier",
      "bundles",
      "aliases",
      "activeTags",
      "sync_config",
      "customOverlay",
    ],
  },
  Tag: {
    source: "reg/tags.proto:111-137",
    fields: ["uid", "name", "digest", "updateTime", "deprecated", "bundles"],
    input: ["name", "digest", "deprecated", "bundles"],
  },
  Overlay: {
    source: "reg/overlays.proto, message Overlay",
    fields: ["uid", "name", "config"],
    input: ["name", "config"],
  },
  OverlayBinding: {
    source: "reg/overlay_bindings.proto, messages OverlayBinding and CreateOverlayBindingRequest",
    fields: ["uid", "repo", "overlay", "tags"],
    // The create's body is the whole request (`body: "*"`): the overlay by uid or name, and tags.
    input: ["overlay", "tags"],
  },
  Subscription: {
    source: "events/subscriptions.proto, message Subscription",
    fields: ["uid", "sink"],
    input: ["sink"],
  },
  ExternalGroupRoleMapping: {
    source: "iam/external_group_role_mappings.proto, message ExternalGroupRoleMapping",
    fields: ["uid", "identityProviderUid", "externalGroupId", "roleUid", "scope", "createTime"],
    input: ["externalGroupId", "roleUid", "scope"],
  },
  Advisory: {
    source: "vuln/advisories.proto:63-115",
    fields: [
      "uid",
      "advisoryId",
      "createTime",
      "updateTime",
      "deleteTime",
      "author",
      "artifactName",
      "artifactType",
      "artifactArchitecture",
      "componentName",
      "componentLocation",
      "componentType",
      "aliases",
      "events",
      "legacyAdvisoryId",
      "severities",
    ],
  },
} as const satisfies Record<string, MessageFacts>;

/**
 * The published `ServicePrincipal` enum's value names (`iam/identities.proto:516-546`), in number
 * order from 1 (0 is `SERVICE_PRINCIPAL_UNSPECIFIED`).
 *
 * @example
 * PUBLISHED_SERVICE_PRINCIPALS.values[1]; // "SERVICE_PRINCIPAL_INGESTER" = 2
 */
export const PUBLISHED_SERVICE_PRINCIPALS = {
  source: "iam/identities.proto:516-546",
  values: [
    "SERVICE_PRINCIPAL_COSIGNED",
    "SERVICE_PRINCIPAL_INGESTER",
    "SERVICE_PRINCIPAL_CATALOG_SYNCER",
    "SERVICE_PRINCIPAL_APKO_BUILDER",
    "SERVICE_PRINCIPAL_ENTITLEMENT_SYNCER",
    "SERVICE_PRINCIPAL_TENANT_SCANNER",
    "SERVICE_PRINCIPAL_SEDIMENTOLOGY",
    "SERVICE_PRINCIPAL_SKILLUP",
    "SERVICE_PRINCIPAL_MATERIALIZER",
    "SERVICE_PRINCIPAL_MICROFLOW",
    "SERVICE_PRINCIPAL_GUARDENER",
    "SERVICE_PRINCIPAL_MICROVM",
    "SERVICE_PRINCIPAL_SKILLS",
  ],
} as const;

/** One published capability bundle of `caps/roles.go`: its own enum names and the bundles it adds. */
export interface BundleFacts {
  source: string;
  /** The enum value names listed in the bundle itself. */
  own: readonly string[];
  /** Names of the bundles it includes (keys of {@link PUBLISHED_CAPABILITY_BUNDLES}). */
  includes?: readonly string[];
}

/**
 * The published capability bundles the built-in roles are made of (`proto/capabilities/roles.go` at
 * 934f495), as enum value names. Bundles of families this package does not manage (events,
 * libraries, skills, guardener, policies…) appear only as far as the roles need them; their members
 * outside `CAPABILITY_TABLE` are listed where the bundle lists them and are ignored by the tests.
 *
 * @example
 * PUBLISHED_CAPABILITY_BUNDLES.RegistryPullCaps.own.includes("CAP_REPO_BLOBS_GET"); // true
 */
export const PUBLISHED_CAPABILITY_BUNDLES = {
  ConsoleViewerCaps: {
    source: "caps/roles.go:16-86",
    own: [
      "CAP_EVENTS_SUBSCRIPTION_LIST",
      "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST",
      "CAP_IAM_GROUP_INVITES_LIST",
      "CAP_IAM_GROUPS_LIST",
      "CAP_IAM_ROLE_BINDINGS_LIST",
      "CAP_IAM_ROLES_LIST",
      "CAP_IAM_IDENTITY_LIST",
      "CAP_IAM_IDENTITY_PROVIDERS_LIST",
      "CAP_REPO_LIST",
      "CAP_MANIFEST_LIST",
      "CAP_REFERRERS_LIST",
      "CAP_TAG_LIST",
      "CAP_MANIFEST_METADATA_LIST",
      "CAP_APK_LIST",
      "CAP_TENANT_RECORD_SIGNATURES_LIST",
      "CAP_TENANT_SBOMS_LIST",
      "CAP_TENANT_VULN_REPORTS_LIST",
      "CAP_VERSION_LIST",
      "CAP_VULN_REPORT_LIST",
      "CAP_REGISTRY_OVERLAYS_LIST",
      "CAP_PACKAGES_ENTITLEMENTS_LIST",
      "CAP_ADVISORIES_LIST",
    ],
  },
  ViewerCaps: {
    source: "caps/roles.go:90-95",
    own: [],
    includes: ["ConsoleViewerCaps", "RegistryPullCaps", "APKPullCaps"],
  },
  EditorCaps: {
    source: "caps/roles.go:98-112",
    own: [
      "CAP_EVENTS_SUBSCRIPTION_CREATE",
      "CAP_EVENTS_SUBSCRIPTION_DELETE",
      "CAP_EVENTS_SUBSCRIPTION_UPDATE",
    ],
    includes: ["RegistryEditorCaps", "ViewerCaps"],
  },
  OwnerCaps: {
    source: "caps/roles.go:143-235",
    own: [
      "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE",
      "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE",
      "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE",
      "CAP_IAM_GROUP_INVITES_CREATE",
      "CAP_IAM_GROUP_INVITES_DELETE",
      "CAP_IAM_GROUPS_CREATE",
      "CAP_IAM_GROUPS_DELETE",
      "CAP_IAM_GROUPS_UPDATE",
      "CAP_IAM_IDENTITY_CREATE",
      "CAP_IAM_IDENTITY_DELETE",
      "CAP_IAM_IDENTITY_UPDATE",
      "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
      "CAP_IAM_IDENTITY_PROVIDERS_DELETE",
      "CAP_IAM_IDENTITY_PROVIDERS_UPDATE",
      "CAP_IAM_SCIM_MANAGE",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_ROLE_BINDINGS_DELETE",
      "CAP_IAM_ROLE_BINDINGS_UPDATE",
      "CAP_IAM_ROLES_CREATE",
      "CAP_IAM_ROLES_DELETE",
      "CAP_IAM_ROLES_UPDATE",
      "CAP_VULN_CREATE",
      "CAP_VULN_REPORT_CREATE",
    ],
    includes: ["EditorCaps", "RegistryPushCaps", "APKPushCaps"],
  },
  RegistryEditorCaps: {
    source: "caps/roles.go:239-248",
    own: [
      "CAP_REPO_CREATE",
      "CAP_REPO_UPDATE",
      "CAP_REPO_DELETE",
      "CAP_REGISTRY_OVERLAYS_LIST",
      "CAP_REGISTRY_OVERLAYS_EDIT",
    ],
    includes: ["RegistryPullCaps"],
  },
  RegistryPullCaps: {
    source: "caps/roles.go:250-264",
    own: [
      "CAP_REPO_BLOBS_GET",
      "CAP_IAM_GROUPS_LIST",
      "CAP_REPO_LIST",
      "CAP_MANIFEST_LIST",
      "CAP_REFERRERS_LIST",
      "CAP_TAG_LIST",
      "CAP_MANIFEST_METADATA_LIST",
      "CAP_TENANT_RECORD_SIGNATURES_LIST",
      "CAP_TENANT_SBOMS_LIST",
      "CAP_TENANT_VULN_REPORTS_LIST",
    ],
  },
  RegistryPushCaps: {
    source: "caps/roles.go:266-281",
    own: [
      "CAP_REPO_CREATE",
      "CAP_REPO_UPDATE",
      "CAP_REPO_DELETE",
      "CAP_MANIFEST_CREATE",
      "CAP_MANIFEST_UPDATE",
      "CAP_MANIFEST_DELETE",
      "CAP_TAG_CREATE",
      "CAP_TAG_UPDATE",
      "CAP_TAG_DELETE",
      "CAP_IAM_GROUPS_CREATE",
    ],
    includes: ["RegistryPullCaps"],
  },
  PullTokenCreatorCaps: {
    source: "caps/roles.go:284-292",
    own: [
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_IDENTITY_CREATE",
      "CAP_IAM_ROLES_LIST",
      "CAP_IAM_GROUPS_LIST",
    ],
  },
  RegistryPullTokenCreatorCaps: {
    source: "caps/roles.go:294",
    own: [],
    includes: ["PullTokenCreatorCaps", "RegistryPullCaps", "APKPullCaps"],
  },
  APKPullCaps: {
    source: "caps/roles.go:296-300",
    own: ["CAP_APK_BLOBS_GET", "CAP_IAM_GROUPS_LIST", "CAP_APK_LIST"],
  },
  APKPushCaps: {
    source: "caps/roles.go:302-306",
    own: ["CAP_IAM_GROUPS_LIST", "CAP_APK_CREATE", "CAP_APK_DELETE"],
    includes: ["APKPullCaps"],
  },
} as const satisfies Record<string, BundleFacts>;

/**
 * The published capability enum values this package's table holds, with their numbers and the
 * `(name)` option (`caps/capabilities.proto`, enum `Capability`, lines 27-463).
 *
 * @example
 * PUBLISHED_CAPABILITIES.CAP_REPO_BLOBS_GET; // [1600, "repo.blobs.get"]
 */
export const PUBLISHED_CAPABILITIES: Readonly<Record<string, readonly [number, string]>> = {
  CAP_IAM_GROUPS_CREATE: [101, "groups.create"],
  CAP_IAM_GROUPS_UPDATE: [102, "groups.update"],
  CAP_IAM_GROUPS_LIST: [103, "groups.list"],
  CAP_IAM_GROUPS_DELETE: [104, "groups.delete"],
  CAP_IAM_GROUP_INVITES_CREATE: [201, "group_invites.create"],
  CAP_IAM_GROUP_INVITES_LIST: [203, "group_invites.list"],
  CAP_IAM_GROUP_INVITES_DELETE: [204, "group_invites.delete"],
  CAP_IAM_ROLES_CREATE: [301, "roles.create"],
  CAP_IAM_ROLES_UPDATE: [302, "roles.update"],
  CAP_IAM_ROLES_LIST: [303, "roles.list"],
  CAP_IAM_ROLES_DELETE: [304, "roles.delete"],
  CAP_IAM_ROLE_BINDINGS_CREATE: [401, "role_bindings.create"],
  CAP_IAM_ROLE_BINDINGS_UPDATE: [402, "role_bindings.update"],
  CAP_IAM_ROLE_BINDINGS_LIST: [403, "role_bindings.list"],
  CAP_IAM_ROLE_BINDINGS_DELETE: [404, "role_bindings.delete"],
  CAP_TENANT_RECORD_SIGNATURES_LIST: [623, "record_signatures.list"],
  CAP_TENANT_SBOMS_LIST: [650, "sboms.list"],
  CAP_TENANT_VULN_REPORTS_LIST: [660, "vuln_reports.list"],
  CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE: [701, "account_associations.create"],
  CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE: [702, "account_associations.update"],
  CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST: [703, "account_associations.list"],
  CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE: [704, "account_associations.delete"],
  CAP_IAM_IDENTITY_CREATE: [901, "identity.create"],
  CAP_IAM_IDENTITY_UPDATE: [902, "identity.update"],
  CAP_IAM_IDENTITY_LIST: [903, "identity.list"],
  CAP_IAM_IDENTITY_DELETE: [904, "identity.delete"],
  CAP_IAM_IDENTITY_PROVIDERS_CREATE: [1301, "identity_providers.create"],
  CAP_IAM_IDENTITY_PROVIDERS_UPDATE: [1302, "identity_providers.update"],
  CAP_IAM_IDENTITY_PROVIDERS_LIST: [1303, "identity_providers.list"],
  CAP_IAM_IDENTITY_PROVIDERS_DELETE: [1304, "identity_providers.delete"],
  CAP_IAM_SCIM_MANAGE: [1305, "identity_providers.scim.manage"],
  CAP_REPO_BLOBS_GET: [1600, "repo.blobs.get"],
  CAP_REPO_CREATE: [1603, "repo.create"],
  CAP_REPO_UPDATE: [1604, "repo.update"],
  CAP_REPO_LIST: [1605, "repo.list"],
  CAP_REPO_DELETE: [1606, "repo.delete"],
  CAP_MANIFEST_CREATE: [1607, "manifest.create"],
  CAP_MANIFEST_UPDATE: [1608, "manifest.update"],
  CAP_MANIFEST_LIST: [1609, "manifest.list"],
  CAP_MANIFEST_DELETE: [1610, "manifest.delete"],
  CAP_TAG_CREATE: [1611, "tag.create"],
  CAP_TAG_UPDATE: [1612, "tag.update"],
  CAP_TAG_LIST: [1613, "tag.list"],
  CAP_TAG_DELETE: [1614, "tag.delete"],
  CAP_MANIFEST_METADATA_LIST: [1615, "manifest.metadata.list"],
  CAP_REFERRERS_LIST: [1616, "referrers.list"],
  CAP_APK_CREATE: [1650, "apk.create"],
  CAP_APK_LIST: [1652, "apk.list"],
  CAP_APK_DELETE: [1653, "apk.delete"],
  CAP_VERSION_LIST: [1654, "version.list"],
  CAP_APK_BLOBS_GET: [1655, "apk.blobs.get"],
  CAP_ADVISORIES_LIST: [1902, "advisories.list"],
  CAP_EVENTS_SUBSCRIPTION_CREATE: [1501, "subscriptions.create"],
  CAP_EVENTS_SUBSCRIPTION_UPDATE: [1502, "subscriptions.update"],
  CAP_EVENTS_SUBSCRIPTION_LIST: [1503, "subscriptions.list"],
  CAP_EVENTS_SUBSCRIPTION_DELETE: [1504, "subscriptions.delete"],
  CAP_REPO_INTERNAL_ADMIN: [1617, "repo.internal.admin"],
  CAP_REGISTRY_OVERLAYS_LIST: [1688, "registry.overlays.list"],
  CAP_REGISTRY_OVERLAYS_EDIT: [1689, "registry.overlays.edit"],
};
