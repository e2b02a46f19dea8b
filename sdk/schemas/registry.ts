import { z } from "zod";
import {
  OptionalString,
  OptionalTimestamp,
  ProtoString,
  protoEnum,
  repeated,
  Timestamp,
  Uid,
} from "./common.js";

// Spec §2 shows a repo's uid, name and createTime and nothing of tags; the rest is the published
// v2beta1 `Repo` and `Tag` (chainguard-dev/sdk, proto/chainguard/platform/registry/v2beta1/
// repos.proto:182-245, tags.proto:111-137); docs/contract-decisions.md, "Read-only kinds".

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
 * A registry repository (read-only through the API). Its uid is a child of its group's uid. The
 * published message's `sync_config` and `customOverlay` are not read (ignored when present).
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
 * A tag of a repository (read-only). Its uid is a child of its repo's uid. The published `Tag` has
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
