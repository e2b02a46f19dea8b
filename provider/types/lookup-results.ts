// Plain interfaces for what the lookups return. The sdk's zod schemas stay the source of the wire
// types; these mirror them (test/unit/provider/public-types.test.ts fails the type-check when they
// drift) because zod's declarations do not compile in a `pulumi new typescript` project (no
// esModuleInterop, no skipLibCheck; colinhacks/zod#5160), and everything `pulumi-irv` declares is
// compiled there.

/**
 * A role, as `irv.iam.getRole` and `irv.iam.getRoles` return it.
 *
 * @example
 * const viewer: irv.Role = await irv.iam.getRole({ name: "viewer" });
 */
export interface Role {
  uid: string;
  name: string;
  description?: string | undefined;
  /**
   * The group a custom role belongs to, when the lookup named it (`parentUid`): the API does not
   * return it. Absent for built-in roles, which are global.
   */
  parentUid?: string | undefined;
  /** What the role grants, e.g. `groups.list` (sorted, no duplicates). */
  capabilities: string[];
  createTime?: string | undefined;
  updateTime?: string | undefined;
}

/**
 * A container repository, as `irv.registry.getRepos` returns it: the wire's repo, with its
 * `sync_config` named `syncConfig` as every other property of the package is (and as the
 * `irv.registry.Repo` resource names it), so that each language's SDK gets its own style of name
 * (Go `SyncConfig`, Python `sync_config`).
 *
 * @example
 * const { repos } = await irv.registry.getRepos({ descendantsOf: orgUid });
 * const names = repos.map((r: irv.Repo) => r.name);
 */
export interface Repo {
  uid: string;
  name: string;
  description?: string | undefined;
  /** `CATALOG_TIER_UNSPECIFIED` when unset; a tier newer than this package is kept as sent. */
  catalogTier:
    | "CATALOG_TIER_UNSPECIFIED"
    | "CATALOG_TIER_APPLICATION"
    | "CATALOG_TIER_BASE"
    | "CATALOG_TIER_FIPS"
    | "CATALOG_TIER_AI"
    | "CATALOG_TIER_DEVTOOLS"
    | "CATALOG_TIER_COMMERCIAL"
    | (string & {});
  bundles: string[];
  /** Equivalent image names. */
  aliases: string[];
  /** The tags actively maintained in this repository. */
  activeTags: string[];
  /** Where the repo syncs from (`sync_config` on the wire); absent for a repo of its own. */
  syncConfig?: SyncConfig | undefined;
  /** The repo's own image customization (custom assembly). */
  customOverlay?: CustomOverlay | undefined;
  createTime: string;
  updateTime?: string | undefined;
}

/**
 * A repo's sync settings, as the lookups return them: the source as a repo uid, the clouds it copies
 * to, and the service's own fields.
 *
 * @example
 * const source = repo.syncConfig?.source;
 */
export interface SyncConfig {
  source: string;
  uniqueTags: boolean;
  expirationTime?: string | undefined;
  google?: string | undefined;
  amazon?: string | undefined;
  azure?: string | undefined;
  apkoOverlay?: string | undefined;
  gracePeriod: boolean;
}

/** A name and PEM content (a key or a certificate). */
interface NamedContent {
  name: string;
  content: string;
}

/**
 * An image customization (the published `CustomOverlay`), as the lookups return it.
 *
 * @example
 * const packages = repo.customOverlay?.contents?.packages ?? [];
 */
export interface CustomOverlay {
  contents?:
    | { packages: string[]; runtimeRepositories: string[]; runtimeKeyring: NamedContent[] }
    | undefined;
  environment: Record<string, string>;
  annotations: Record<string, string>;
  accounts?:
    | {
        runAs: string;
        users: {
          username: string;
          uid?: number | null | undefined;
          gid?: number | null | undefined;
          groupName: string;
          shell: string;
          homeDir: string;
        }[];
        groups: { groupname: string; gid?: number | null | undefined; members: string[] }[];
      }
    | undefined;
  certificates?: { additional: NamedContent[]; providers: string[] } | undefined;
}

/** A note-only advisory event kind: why, in words. */
interface EventNote {
  note: string;
}

/**
 * One event of an advisory: its author and review, and exactly one of the published kinds, each
 * with its `note`: `detection`, `fixed` (with the `fixedVersion`), `falsePositiveDetermination`
 * (with its `type`), `truePositiveDetermination`, `analysisNotPlanned`, `fixNotPlanned`,
 * `pendingUpstreamFix`, `patched` (with the `patchedVersions`).
 *
 * @example
 * const fixedIn = advisory.events.find((e: irv.AdvisoryEvent) => e.fixed)?.fixed?.fixedVersion;
 */
export interface AdvisoryEvent {
  /** A child of the advisory's uid. */
  uid: string;
  createTime?: string | undefined;
  /** The scanner's findings (JSON), base64 as protojson writes bytes. */
  findings?: string | undefined;
  author: string;
  reviewer?: string | undefined;
  /** `REVIEW_STATE_PENDING`, `…_APPROVED`, `…_REQUEST_CHANGES`, `…_REJECTED` (a newer one is kept as sent). */
  reviewState:
    | "REVIEW_STATE_UNSPECIFIED"
    | "REVIEW_STATE_PENDING"
    | "REVIEW_STATE_APPROVED"
    | "REVIEW_STATE_REQUEST_CHANGES"
    | "REVIEW_STATE_REJECTED"
    | (string & {});
  /** The original CVE dashboard issue. */
  issue?: string | undefined;
  /** Detected: through the NVD API (`nvdapi`), by hand (`manual`) or by a scanner (`scanv1`). */
  detection?:
    | {
        nvdapi?: { cpeSearched: string; cpeFound: string } | undefined;
        manual?: Record<string, never> | undefined;
        scanv1?:
          | {
              scanner: string;
              subpackage: string;
              componentId: string;
              component: string;
              componentVersion: string;
              componentType: string;
              componentLocation: string;
              artifactVersion: string;
              scannerVersion: string;
              grypeDbBuilt: string;
              grypeDbChecksum: string;
            }
          | undefined;
      }
    | undefined;
  /** Fixed: the first version of the artifact in which the vulnerability is fixed. */
  fixed?:
    | {
        fixedVersion: string;
        note: string;
        scannerVersion: string;
        grypeDbBuilt: string;
        grypeDbChecksum: string;
      }
    | undefined;
  /** Not affected, and why (`type`: `TYPE_COMPONENT_VULNERABILITY_MISMATCH`, …). */
  falsePositiveDetermination?:
    | {
        type:
          | "TYPE_UNSPECIFIED"
          | "TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED"
          | "TYPE_COMPONENT_VULNERABILITY_MISMATCH"
          | "TYPE_VULNERABLE_CODE_VERSION_NOT_USED"
          | "TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE"
          | "TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH"
          | "TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY"
          | "TYPE_INLINE_MITIGATIONS_EXIST"
          | (string & {});
        note: string;
      }
    | undefined;
  /** No analysis is planned. */
  analysisNotPlanned?: EventNote | undefined;
  /** No fix is planned. */
  fixNotPlanned?: EventNote | undefined;
  /** A fix is pending upstream. */
  pendingUpstreamFix?: EventNote | undefined;
  /** Determined to affect the artifact. */
  truePositiveDetermination?: EventNote | undefined;
  /** Patched in these versions of the artifact. */
  patched?: { patchedVersions: string[]; note: string } | undefined;
}

/**
 * A vulnerability advisory, as `irv.vulnerabilities.getAdvisories` returns it: how one
 * vulnerability (its CVE, GHSA… ids are the `aliases`) relates to one artifact.
 *
 * @example
 * const { advisories } = await irv.vulnerabilities.getAdvisories({ descendantsOf: orgUid });
 * const log4shell = advisories.filter((a: irv.Advisory) => a.aliases.includes("CVE-2021-44228"));
 */
export interface Advisory {
  uid: string;
  /** The CGA identifier, e.g. `CGA-xvgw-cvr7-9g2q`. */
  advisoryId: string;
  createTime?: string | undefined;
  updateTime?: string | undefined;
  /** Set only on a deleted advisory. */
  deleteTime?: string | undefined;
  author: string;
  artifactName: string;
  artifactType: string;
  artifactArchitecture: string;
  componentName: string;
  componentLocation: string;
  componentType: string;
  aliases: string[];
  /** Its lifecycle, oldest first: each event is one of the published kinds ({@link AdvisoryEvent}). */
  events: AdvisoryEvent[];
  legacyAdvisoryId?: string | undefined;
  /** CVSS scorings: `type` is `TYPE_CVSS_V2`, `TYPE_CVSS_V3` or `TYPE_CVSS_V4` (others kept as sent). */
  severities: {
    type: "TYPE_UNSPECIFIED" | "TYPE_CVSS_V2" | "TYPE_CVSS_V3" | "TYPE_CVSS_V4" | (string & {});
    /** A CVSS vector or a number, depending on `type`. */
    score: string;
  }[];
}

/**
 * A group, as {@link getGroup} returns it.
 *
 * @example
 * const platform: irv.Group = await irv.iam.getGroup({ name: "platform" });
 */
export interface Group {
  uid: string;
  name: string;
  description?: string | undefined;
  resourceLimits: {
    clusters?: number | undefined;
    idps?: number | undefined;
    repositories?: number | undefined;
  };
  verified: boolean;
  createTime: string;
  updateTime: string;
}

/**
 * An identity, as {@link getIdentity} returns it: exactly one of the variants is set.
 *
 * @example
 * const ci: irv.Identity = await irv.iam.getIdentity({ name: "ci", groupUid });
 */
export interface Identity {
  uid: string;
  name: string;
  description?: string | undefined;
  claimMatch?:
    | {
        issuer?: string | undefined;
        issuerPattern?: string | undefined;
        subject?: string | undefined;
        subjectPattern?: string | undefined;
        audience?: string | undefined;
        audiencePattern?: string | undefined;
        claims?: Record<string, string> | undefined;
        claimPatterns?: Record<string, string> | undefined;
      }
    | undefined;
  staticKeys?:
    | {
        issuer: string;
        subject: string;
        issuerKeys: string;
        expirationTime?: string | undefined;
        audiences?: string[] | undefined;
      }
    | undefined;
  awsIdentity?:
    | {
        awsAccount: string;
        arn?: string | undefined;
        arnPattern?: string | undefined;
        userId?: string | undefined;
        userIdPattern?: string | undefined;
      }
    | undefined;
  /** A published `SERVICE_PRINCIPAL_*` name; one this version does not know yet is passed through. */
  servicePrincipal?: string | undefined;
  lastSeenTime?: string | undefined;
  createTime: string;
  updateTime: string;
}

/**
 * An identity provider, as {@link getIdentityProviders} returns it (never with its client secret).
 *
 * @example
 * const issuers = (await irv.iam.getIdentityProviders({})).identityProviders.map((p: irv.IdentityProvider) => p.oidc.issuer);
 */
export interface IdentityProvider {
  uid: string;
  name: string;
  description?: string | undefined;
  defaultRole?: string | undefined;
  oidc: {
    issuer: string;
    clientId: string;
    additionalScopes: string[];
    /** The token claim that carries the user's groups; absent when group extraction is off. */
    groupsClaim?: string | undefined;
    /**
     * How a login is matched to a SCIM-provisioned user; `CORRELATION_RULE_UNSPECIFIED` means
     * `CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID`. A rule newer than this package is kept as sent.
     */
    correlationRule:
      | "CORRELATION_RULE_UNSPECIFIED"
      | "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"
      | "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"
      | (string & {});
    /** Whether logins use PKCE (RFC 7636); a public client has PKCE and no secret. */
    pkceEnabled: boolean;
  };
  createTime: string;
  updateTime: string;
}

/**
 * A tag of a registry repository. The service's tags carry no `createTime`.
 *
 * @example
 * const names = (await irv.registry.getTags({ repoUid })).tags.map((t: irv.Tag) => t.name);
 */
export interface Tag {
  uid: string;
  name: string;
  /** The manifest digest the tag points to. */
  digest: string;
  createTime?: string | undefined;
  updateTime?: string | undefined;
  deprecated: boolean;
  bundles: string[];
}

/**
 * A reusable overlay, as `irv.registry.getOverlays` returns it.
 *
 * @example
 * const { overlays } = await irv.registry.getOverlays({ childrenOf: orgUid });
 * const packages = overlays.flatMap((o: irv.Overlay) => o.config.contents?.packages ?? []);
 */
export interface Overlay {
  uid: string;
  name: string;
  /** Packages only (the one part of the config an overlay takes). */
  config: CustomOverlay;
}

/**
 * An overlay binding, as `irv.registry.getOverlayBindings` returns it: the overlay comes expanded.
 *
 * @example
 * const { overlayBindings } = await irv.registry.getOverlayBindings({ repoUid });
 * const names = overlayBindings.map((b: irv.OverlayBinding) => b.overlay?.name);
 */
export interface OverlayBinding {
  uid: string;
  /** The repo's uid. */
  repo: string;
  overlay?: { uid: string; name: string; config: CustomOverlay } | undefined;
  /** The exact tags the overlay applies to. */
  tags: string[];
}

/**
 * A webhook subscription, as `irv.events.getSubscriptions` returns it.
 *
 * @example
 * const { subscriptions } = await irv.events.getSubscriptions({ childrenOf: orgUid });
 * const sinks = subscriptions.map((s: irv.Subscription) => s.sink);
 */
export interface Subscription {
  uid: string;
  /** Where events are POSTed. */
  sink: string;
}

/**
 * An external group role mapping, as `irv.iam.getExternalGroupRoleMappings` returns it: everyone in
 * the identity provider's external group holds the role at the scope.
 *
 * @example
 * const { externalGroupRoleMappings } = await irv.iam.getExternalGroupRoleMappings({ identityProviderUid });
 * const groups = externalGroupRoleMappings.map((m: irv.ExternalGroupRoleMapping) => m.externalGroupId);
 */
export interface ExternalGroupRoleMapping {
  uid: string;
  identityProviderUid: string;
  externalGroupId: string;
  roleUid: string;
  /** The group the role is held in (the organization root). */
  scope: string;
  createTime?: string | undefined;
}
