import type * as pulumi from "@pulumi/pulumi";
import { byUid, dataSource } from "../data-sources/index.js";
import type { ByUid, InputsOf, Tag } from "../types/index.js";

/**
 * Arguments of {@link getTags}.
 *
 * @example
 * const args: irv.registry.GetTagsArgs = { repoUid, orderBy: "name" };
 */
export interface GetTagsArgs {
  /** The repository. */
  repoUid: string;
  /** Exact tag name. */
  name?: string | undefined;
  orderBy?: string | undefined;
}

/**
 * Result of {@link getTags}.
 *
 * @example
 * const { tags }: irv.registry.GetTagsResult = await irv.registry.getTags({ repoUid });
 */
export interface GetTagsResult {
  tags: Tag[];
}

const tags = dataSource("irv.registry.getTags", async (client, { repoUid, name, orderBy }: GetTagsArgs) => {
  if (!repoUid) throw new Error("repoUid is required");
  return {
    tags: await client.tags.collectParallel({
      childrenOf: repoUid,
      ...(name ? { name } : {}),
      ...(orderBy ? { orderBy } : {}),
    }),
  };
});
const one = byUid("irv.registry.getTag", (client) => client.tags);

/**
 * Every tag of a repository (all pages).
 *
 * @example
 * const { tags } = await irv.registry.getTags({ repoUid, orderBy: "name" });
 */
export function getTags(args: GetTagsArgs): Promise<GetTagsResult> {
  return tags.get(args);
}

/**
 * {@link getTags} taking Inputs and returning an Output.
 *
 * @example
 * export const tagNames = irv.registry.getTagsOutput({ repoUid }).tags.apply((t) => t.map((x) => x.name));
 */
export function getTagsOutput(args: InputsOf<GetTagsArgs>): pulumi.Output<GetTagsResult> {
  return tags.output(args);
}

/**
 * One tag by uid: its digest, whether it is deprecated, its bundles.
 *
 * @example
 * const latest = await irv.registry.getTag({ uid: latestUid });
 */
export function getTag(args: ByUid): Promise<Tag> {
  return one.get(args);
}

/**
 * {@link getTag} taking Inputs and returning an Output.
 *
 * @example
 * export const digest = irv.registry.getTagOutput({ uid: latest.uid }).digest;
 */
export function getTagOutput(args: InputsOf<ByUid>): pulumi.Output<Tag> {
  return one.output(args);
}
