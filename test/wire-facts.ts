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
  },
  Tag: {
    source: "reg/tags.proto:111-137",
    fields: ["uid", "name", "digest", "updateTime", "deprecated", "bundles"],
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
