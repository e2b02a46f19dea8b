import { z } from "zod";
import { Timestamp, Uid } from "./common.js";

/**
 * A registry repository (read-only through the API). Its uid is a child of its group's uid.
 *
 * @example
 * const repo = Repo.parse(body);
 */
export const Repo = z.object({
  uid: Uid,
  name: z.string(),
  createTime: Timestamp,
  updateTime: Timestamp.optional(),
});
/**
 * A registry repository.
 *
 * @example
 * const repos: Repo[] = await client.repos.collect({ descendantsOf: orgUid });
 */
export type Repo = z.infer<typeof Repo>;

/**
 * A tag of a repository (read-only). Its uid is a child of its repo's uid. Fields beyond uid,
 * name and timestamps are not shown in the spec; `digest` is ours (see contract decisions).
 *
 * @example
 * const tag = Tag.parse(body);
 */
export const Tag = z.object({
  uid: Uid,
  name: z.string(),
  digest: z.string().optional(),
  createTime: Timestamp,
  updateTime: Timestamp.optional(),
});
/**
 * A tag of a repository.
 *
 * @example
 * const tags: Tag[] = await client.tags.collect({ childrenOf: repo.uid });
 */
export type Tag = z.infer<typeof Tag>;
