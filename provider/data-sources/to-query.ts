import type { ListQuery } from "../../sdk/index.js";
import type { ListFilter } from "../types/index.js";

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
