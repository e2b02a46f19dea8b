import { z } from "zod";
import type { KindHooks } from "./kind-context.js";
import { SeedText as Text } from "./seed-text.js";

/**
 * The fields a seeded tag may set (control API and fixtures): the published `Tag`'s own fields
 * (chainguard-dev/sdk, proto/chainguard/platform/registry/v2beta1/tags.proto:111-137). Unknown keys
 * are dropped.
 *
 * @example
 * TagSeed.parse({ name: "latest", digest: "sha256:…", bundles: ["base"] });
 */
export const TagSeed = z.object({
  name: Text.min(1),
  digest: Text.optional(),
  deprecated: z.boolean().optional(),
  bundles: z.array(Text).max(100).optional(),
});

/**
 * Tags as the gateway writes them: the published message's fields in its order, unset ones at their
 * proto3 defaults. No `createTime`: the published `Tag` has only `updateTime` (tags.proto:129), and
 * the emulator sends nothing the service does not (docs/contract-decisions.md, "Read-only kinds").
 * A create of a name the repo has is an update of that tag (KindRules.upsertByName): its uid stays.
 *
 * @example
 * "createTime" in (TAG_HOOKS.stored?.(tagUid, repoUid, { name: "v1" }, now) ?? {}); // false
 */
export const TAG_HOOKS: Pick<KindHooks, "stored"> = {
  stored: (uid, _parentUid, f, now) => ({
    uid,
    name: f.name,
    digest: f.digest ?? "",
    updateTime: now,
    deprecated: f.deprecated ?? false,
    bundles: f.bundles ?? [],
  }),
};
