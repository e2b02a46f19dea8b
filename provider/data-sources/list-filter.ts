import type * as pulumi from "@pulumi/pulumi";
import type { ListQuery } from "../../sdk/index.js";

/**
 * Scoping of a data source (spec §4 list filters).
 *
 * @example
 * const f: ListFilter = { descendantsOf: orgUid, orderBy: "name" };
 */
export interface ListFilter {
  /** Anywhere below this group (`uidp.descendants_of`). */
  descendantsOf?: string | undefined;
  /** Direct children of this group (`uidp.children_of`). */
  childrenOf?: string | undefined;
  /** Exact name. */
  name?: string | undefined;
  /** `name`, `name desc`, `created_at desc`, `uid`. */
  orderBy?: string | undefined;
}

/**
 * {@link ListFilter} with Pulumi inputs, for the `…Output` forms.
 *
 * @example
 * const filter: irv.ListFilterInput = { descendantsOf: platform.uid, orderBy: "name" };
 * export const repos = irv.registry.getReposOutput(filter).repos;
 */
export type ListFilterInput = { [K in keyof ListFilter]?: pulumi.Input<string | undefined> };

/**
 * The list query of a filter (no paging fields: data sources read every page).
 *
 * @example
 * toQuery({ childrenOf: uid }); // { childrenOf: uid }
 */
export function toQuery(f: ListFilter = {}): ListQuery {
  const q: ListQuery = {};
  if (f.descendantsOf) q.descendantsOf = f.descendantsOf;
  if (f.childrenOf) q.childrenOf = f.childrenOf;
  if (f.name) q.name = f.name;
  if (f.orderBy) q.orderBy = f.orderBy;
  return q;
}
