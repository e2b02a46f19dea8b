import { z } from "zod";
import { TotalCount } from "./common.js";

/**
 * Builds the schema of a v2 list envelope: the items under the plural key, `nextPageToken` (absent
 * or empty on the last page), `totalCount` (a string holding an integer) and `skipped`.
 *
 * @example
 * const GroupList = listEnvelope("groups", Group);
 * const page = GroupList.parse(body); // { items, nextPageToken, totalCount, skipped }
 */
export function listEnvelope<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z
    .object({
      [key]: z.array(item).optional().default([]),
      nextPageToken: z.string().optional(),
      totalCount: TotalCount.optional(),
      skipped: z.number().int().nonnegative().optional().default(0),
    } as { [P in K]: z.ZodDefault<z.ZodOptional<z.ZodArray<T>>> } & {
      nextPageToken: z.ZodOptional<z.ZodString>;
      totalCount: z.ZodOptional<typeof TotalCount>;
      skipped: z.ZodDefault<z.ZodOptional<z.ZodNumber>>;
    })
    .transform((raw) => {
      const r = raw as Record<string, unknown> & {
        nextPageToken?: string | undefined;
        totalCount?: number | undefined;
        skipped: number;
      };
      return {
        items: r[key] as z.output<T>[],
        nextPageToken: r.nextPageToken ? r.nextPageToken : undefined,
        totalCount: r.totalCount,
        skipped: r.skipped,
      };
    });
}

/**
 * One page of a list, normalised: items in order, the cursor (undefined on the last page).
 *
 * @example
 * const page: Page<Group> = await client.groups.list({ childrenOf: orgUid, pageSize: 50 });
 * if (page.nextPageToken === undefined) console.log("last page:", page.items.length, "groups");
 */
export interface Page<T> {
  /** The items of this page, in the requested order. */
  items: T[];
  /** Cursor of the next page; undefined on the last page. */
  nextPageToken: string | undefined;
  /** Total matching results across all pages, when the server says. */
  totalCount: number | undefined;
  /** How many results were skipped because of `skip`. */
  skipped: number;
}
