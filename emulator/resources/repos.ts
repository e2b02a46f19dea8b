import { z } from "zod";
import type { KindHooks } from "./kind-context.js";
import { SeedText as Text } from "./seed-text.js";

// Seeded names are compared exactly, as over the API: a lone surrogate would become U+FFFD.
const Names = z.array(Text).max(100);

/**
 * The fields a seeded repo may set (control API and fixtures): the published `Repo`'s own fields
 * (chainguard-dev/sdk, proto/chainguard/platform/registry/v2beta1/repos.proto:182-245) but its
 * `sync_config` and `customOverlay`, which the emulator does not model. Unknown keys are dropped.
 *
 * @example
 * RepoSeed.parse({ name: "nginx", catalogTier: "CATALOG_TIER_BASE", activeTags: ["latest"] });
 */
export const RepoSeed = z.object({
  name: Text.min(1),
  description: Text.optional(),
  catalogTier: z
    .string()
    .regex(/^CATALOG_TIER_[A-Z_]+$/, { message: "must be a CatalogTier value name, e.g. CATALOG_TIER_BASE" })
    .optional(),
  bundles: Names.optional(),
  aliases: Names.optional(),
  activeTags: Names.optional(),
});

/**
 * Repos as the gateway writes them (protojson with `EmitUnpopulated`): every field of the published
 * message in its order, unset strings `""`, lists `[]`, the unset enum by its zero name and unset
 * messages `null`.
 *
 * @example
 * REPO_HOOKS.stored?.(repoUid, groupUid, { name: "app" }, now)?.catalogTier; // "CATALOG_TIER_UNSPECIFIED"
 */
export const REPO_HOOKS: Pick<KindHooks, "stored"> = {
  stored: (uid, _parentUid, f, now) => ({
    uid,
    name: f.name,
    description: f.description ?? "",
    catalogTier: f.catalogTier ?? "CATALOG_TIER_UNSPECIFIED",
    bundles: f.bundles ?? [],
    aliases: f.aliases ?? [],
    activeTags: f.activeTags ?? [],
    // The published json_name of this field is snake_case (repos.proto:230-233).
    sync_config: null,
    customOverlay: null,
    createTime: now,
    updateTime: now,
  }),
};
