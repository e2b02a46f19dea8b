import { z } from "zod";
import {
  OptionalString,
  OptionalTimestamp,
  optionalMessage,
  ProtoString,
  protoEnum,
  repeated,
  Timestamp,
  Uid,
} from "./common.js";
import { CustomOverlay, CustomOverlayInput } from "./custom-overlay.js";

// Spec §2 shows a repo's uid, name and createTime and nothing of tags; the rest is the published
// v2beta1 `Repo`, `SyncConfig`, `RepoReadme` and `Tag` (chainguard-dev/sdk,
// proto/chainguard/platform/registry/v2beta1/repos.proto, tags.proto); docs/contract-decisions.md.

/**
 * The catalog tiers of a repository, in enum order (`CatalogTier`, repos.proto:538-559).
 *
 * @example
 * CATALOG_TIERS.includes("CATALOG_TIER_BASE"); // true
 */
export const CATALOG_TIERS = [
  "CATALOG_TIER_UNSPECIFIED",
  "CATALOG_TIER_APPLICATION",
  "CATALOG_TIER_BASE",
  "CATALOG_TIER_FIPS",
  "CATALOG_TIER_AI",
  "CATALOG_TIER_DEVTOOLS",
  "CATALOG_TIER_COMMERCIAL",
] as const;

/**
 * A repo's sync settings as read (published `SyncConfig`). `source` is always answered as a uid;
 * `uniqueTags`, `expirationTime`, `apkoOverlay` and `gracePeriod` are the service's (OUTPUT_ONLY).
 *
 * @example
 * SyncConfig.parse({ source: srcUid, google: "" }).google; // undefined
 */
export const SyncConfig = z.object({
  source: ProtoString,
  uniqueTags: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  expirationTime: OptionalTimestamp,
  google: OptionalString,
  amazon: OptionalString,
  azure: OptionalString,
  apkoOverlay: OptionalString,
  gracePeriod: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
});
/**
 * A repo's sync settings.
 *
 * @example
 * const sync: SyncConfig | undefined = repo.sync_config;
 */
export type SyncConfig = z.infer<typeof SyncConfig>;

/**
 * A repo's sync settings as written: the source (a repo uid, a catalog name such as
 * `chainguard/nginx`, or an image reference) and the clouds to copy to. The service's fields are
 * refused by name.
 *
 * @example
 * SyncConfigInput.parse({ source: "chainguard/nginx", amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/nginx" });
 */
export const SyncConfigInput = z.strictObject({
  source: z.string().min(1, { message: "is required" }),
  google: z.string().optional(),
  amazon: z.string().optional(),
  azure: z.string().optional(),
});
/**
 * A repo's sync settings as written.
 *
 * @example
 * const sync: SyncConfigInput = { source: "chainguard/python" };
 */
export type SyncConfigInput = z.infer<typeof SyncConfigInput>;

/**
 * A registry repository. Its uid is a child of its group's uid. `sync_config` keeps its proto name
 * on the wire (the published field's `json_name`), so it keeps it here too; every other field is
 * lowerCamelCase.
 *
 * @example
 * const repo = Repo.parse(body);
 * repo.catalogTier; // "CATALOG_TIER_UNSPECIFIED" unless the service says otherwise
 */
export const Repo = z.object({
  uid: Uid,
  name: z.string(),
  description: OptionalString,
  /** A tier this client does not know yet is kept as sent. */
  catalogTier: protoEnum(CATALOG_TIERS),
  bundles: repeated(z.string()),
  /** Equivalent image names. */
  aliases: repeated(z.string()),
  /** The tags actively maintained in this repository. */
  activeTags: repeated(z.string()),
  /** Where the repo syncs from; absent for a repo of its own. */
  sync_config: optionalMessage(SyncConfig),
  /** The repo's own image customization (custom assembly). */
  customOverlay: optionalMessage(CustomOverlay),
  createTime: Timestamp,
  updateTime: OptionalTimestamp,
});
/**
 * A registry repository.
 *
 * @example
 * const repos: Repo[] = await client.repos.collect({ descendantsOf: orgUid });
 */
export type Repo = z.infer<typeof Repo>;

/**
 * Body of `POST /registry/<version>/repos/<group_uid>`: a name, and optionally the rest. A synced
 * repo takes its tier, bundles, aliases and active tags from its source (setting them is refused by
 * the service).
 *
 * @example
 * RepoCreate.parse({ name: "nginx", sync_config: { source: "chainguard/nginx" } });
 */
export const RepoCreate = z.object({
  name: z.string().min(1, { message: "is required" }),
  description: z.string().optional(),
  catalogTier: z.enum(CATALOG_TIERS).optional(),
  bundles: z.array(z.string().min(1)).optional(),
  aliases: z.array(z.string().min(1)).optional(),
  activeTags: z.array(z.string().min(1)).optional(),
  sync_config: SyncConfigInput.optional(),
  customOverlay: CustomOverlayInput.optional(),
});
/**
 * Body of a repo create.
 *
 * @example
 * const body: RepoCreate = { name: "python", bundles: ["base"] };
 * await client.repos.create(orgUid, body);
 */
export type RepoCreate = z.infer<typeof RepoCreate>;

/**
 * The mutable fields of a repo, as PATCH paths (every field the published `Repo` does not mark
 * OUTPUT_ONLY; `sync_config` by its proto name).
 *
 * @example
 * await client.repos.update(repo.uid, { description: "web" }, { updateMask: ["description"] });
 */
export const REPO_MUTABLE_FIELDS = [
  "name",
  "description",
  "catalogTier",
  "bundles",
  "aliases",
  "activeTags",
  "sync_config",
  "customOverlay",
] as const;

/**
 * The fields a synced repo takes from its source (published comments of `Repo`): changing them on a
 * repo with a `sync_config` is INVALID_ARGUMENT.
 *
 * @example
 * SYNC_INHERITED_FIELDS.includes("bundles"); // true
 */
export const SYNC_INHERITED_FIELDS = ["catalogTier", "bundles", "aliases", "activeTags"] as const;

/**
 * A repo's README (published `RepoReadme`, a singleton sub-resource: `…/repos/<uid>/readme`).
 *
 * @example
 * const readme = RepoReadme.parse({ uid: repo.uid, content: "# nginx" });
 */
export const RepoReadme = z.object({ uid: ProtoString, content: ProtoString });
/**
 * A repo's README.
 *
 * @example
 * const { content }: RepoReadme = await client.repos.getReadme(repo.uid);
 */
export type RepoReadme = z.infer<typeof RepoReadme>;

/**
 * A tag of a repository. Its uid is a child of its repo's uid. The published `Tag` has
 * no `createTime` (only `updateTime`); one sent all the same is read.
 *
 * @example
 * const tag = Tag.parse(body);
 * tag.digest; // "sha256:…"
 */
export const Tag = z.object({
  uid: Uid,
  name: z.string(),
  /** The manifest digest the tag points to. */
  digest: ProtoString,
  createTime: OptionalTimestamp,
  updateTime: OptionalTimestamp,
  deprecated: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  bundles: repeated(z.string()),
});
/**
 * A tag of a repository.
 *
 * @example
 * const tags: Tag[] = await client.tags.collect({ childrenOf: repo.uid });
 */
export type Tag = z.infer<typeof Tag>;

/**
 * A manifest digest, as a tag points to one: `sha256:` and 64 lowercase hex digits (or
 * `sha512:` and 128).
 *
 * @example
 * Digest.safeParse("sha256:abc").success; // false
 */
export const Digest = z.string().regex(/^(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$/, {
  message: "must be a digest: sha256: and 64 lowercase hex digits (or sha512: and 128)",
});

/**
 * Body of `POST /registry/<version>/tags/<repo_uid>`. The service's create "creates (or updates)":
 * a tag of the same name under the repo gets the new digest and keeps its uid.
 *
 * @example
 * TagCreate.parse({ name: "latest", digest: `sha256:${"a".repeat(64)}` });
 */
export const TagCreate = z.object({
  name: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/, {
    message: "must be a tag name: a letter, digit or _, then up to 127 of letters, digits, ., _ and -",
  }),
  digest: Digest,
  deprecated: z.boolean().optional(),
  bundles: z.array(z.string().min(1)).optional(),
});
/**
 * Body of a tag create (an upsert by name).
 *
 * @example
 * await client.tags.create(repo.uid, { name: "v1", digest });
 */
export type TagCreate = z.infer<typeof TagCreate>;
