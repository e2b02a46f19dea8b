import * as pulumi from "@pulumi/pulumi";
import type { IrvClient, ListQuery } from "../../sdk/index.js";
import { clientFor, resolveSettings } from "../config/settings.js";
import type { ListFilter } from "../types/index.js";

/**
 * The client of the program process: the same settings as the provider (stack config `irv:*`,
 * then `IRV_*`), read when the first data source runs.
 *
 * @example
 * const roles = await programClient().roles.collect();
 */
export function programClient(): IrvClient {
  return clientFor(resolveSettings((k) => pulumi.runtime.getConfig(k)));
}

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
