import type { FieldViolation } from "pulumi-irv/sdk";
import { HIERARCHICAL_UID_PATTERN } from "pulumi-irv/sdk";
import { invalidArgument } from "../core/index.js";
import type { SortField } from "../store/index.js";

/**
 * `page_size` when none is given (spec §8).
 *
 * @example
 * parseListParams({}).pageSize === DEFAULT_PAGE_SIZE; // true
 */
export const DEFAULT_PAGE_SIZE = 50;
/**
 * Largest page; a larger `page_size` is lowered to it (AIP-158), not refused.
 *
 * @example
 * parseListParams({ page_size: "1000" }).pageSize === MAX_PAGE_SIZE; // true
 */
export const MAX_PAGE_SIZE = 200;

/**
 * The parameters of a List, parsed and checked.
 *
 * @example
 * const params: ListParams = parseListParams(req.query as QueryValues);
 * const key = queryKey("groups", params);
 */
export interface ListParams {
  pageSize: number;
  pageToken: string | undefined;
  sort: SortField;
  descending: boolean;
  skip: number;
  name: string | undefined;
  childrenOf: string | undefined;
  descendantsOf: string | undefined;
  /** The kind's own filters that were given: each keeps rows whose field (or an item of it) is one of the values. */
  filters: readonly FieldFilter[];
}

/**
 * A list filter of a kind's own (a repeated field of its published List request): the parameter's
 * names (the proto name first, as messages write it; then the JSON name, which grpc-gateway also
 * accepts) and the stored field it matches.
 *
 * @example
 * const f: ListFilterParam = { names: ["advisory_ids", "advisoryIds"], field: "advisoryId" };
 */
export interface ListFilterParam {
  names: readonly [string, ...string[]];
  field: string;
}

/**
 * A given filter: rows whose `field` (a string, or a list of strings) holds any of `values`.
 *
 * @example
 * const f: FieldFilter = { field: "aliases", values: ["CVE-2021-44228"] };
 */
export interface FieldFilter {
  field: string;
  values: readonly string[];
}

/**
 * A parsed query string: fastify gives arrays for repeated keys.
 *
 * @example
 * const query: QueryValues = { page_size: "10", order_by: ["name", "uid"] };
 * parseListParams(query); // throws code 3: order_by must be given at most once
 */
export type QueryValues = Record<string, string | string[] | undefined>;

// The spec writes the snake_case names; grpc-gateway also accepts the JSON (lowerCamel) names, and
// so do we. Error messages name the parameter as the spec writes it.
const ALIASES: Record<string, readonly string[]> = {
  page_size: ["page_size", "pageSize"],
  page_token: ["page_token", "pageToken"],
  order_by: ["order_by", "orderBy"],
  skip: ["skip"],
  name: ["name"],
  "uidp.children_of": ["uidp.children_of", "uidp.childrenOf"],
  "uidp.descendants_of": ["uidp.descendants_of", "uidp.descendantsOf"],
};

const SORT_FIELDS: readonly SortField[] = ["name", "created_at", "uid"];

/**
 * Parses the list parameters of section 4 of the spec, and the kind's own repeated filters (given
 * as the key repeated once per value, as grpc-gateway reads a repeated field; empty values are
 * dropped). Violations (a negative or non-integer `page_size` or `skip`, an unknown `order_by`
 * field, a repeated single parameter, a malformed scope uid) are all reported together as one
 * code 3 error with a BadRequest detail.
 *
 * @example
 * parseListParams({ page_size: "5", order_by: "name desc" });
 * // { pageSize: 5, sort: "name", descending: true, skip: 0, … }
 * parseListParams({ aliases: ["CVE-1", "CVE-2"] }, [{ names: ["aliases"], field: "aliases" }]).filters;
 * // [{ field: "aliases", values: ["CVE-1", "CVE-2"] }]
 */
export function parseListParams(
  query: QueryValues,
  filterParams: readonly ListFilterParam[] = [],
): ListParams {
  const violations: FieldViolation[] = [];
  const one = (param: string): string | undefined => {
    let found: string | undefined;
    for (const key of ALIASES[param] ?? [param]) {
      const v = query[key];
      if (v === undefined) continue;
      if (Array.isArray(v) || found !== undefined) {
        violations.push({ field: param, description: "must be given at most once" });
        return undefined;
      }
      found = v;
    }
    return found;
  };
  const integer = (param: string): number | undefined => {
    const raw = one(param);
    if (raw === undefined || raw === "") return undefined;
    if (!/^-?\d+$/.test(raw.trim())) {
      violations.push({ field: param, description: `must be an integer, got ${JSON.stringify(raw)}` });
      return undefined;
    }
    const n = Number(raw);
    if (n < 0 || !Number.isSafeInteger(n)) {
      violations.push({ field: param, description: `must be a non-negative integer, got ${raw}` });
      return undefined;
    }
    return n;
  };
  const scope = (param: string): string | undefined => {
    const raw = one(param);
    if (raw === undefined || raw === "") return undefined;
    if (!HIERARCHICAL_UID_PATTERN.test(raw)) {
      violations.push({ field: param, description: `must be a group uid, got ${JSON.stringify(raw)}` });
      return undefined;
    }
    return raw;
  };

  const size = integer("page_size");
  const skip = integer("skip");
  const pageToken = one("page_token");
  const name = one("name");
  const childrenOf = scope("uidp.children_of");
  const descendantsOf = scope("uidp.descendants_of");
  const order = parseOrderBy(one("order_by"), violations);
  const filters: FieldFilter[] = [];
  for (const f of filterParams) {
    const values = f.names.flatMap((key) => query[key] ?? []).filter((v) => v !== "");
    if (values.length > 0) filters.push({ field: f.field, values: [...new Set(values)].sort() });
  }
  if (violations.length > 0) throw invalidArgument(violations);
  return {
    // 0 means "the default" (AIP-158); above the maximum is lowered to it.
    pageSize: size === undefined || size === 0 ? DEFAULT_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE),
    pageToken: pageToken === "" ? undefined : pageToken,
    sort: order.sort,
    descending: order.descending,
    skip: skip ?? 0,
    name: name === "" ? undefined : name,
    childrenOf,
    descendantsOf,
    filters,
  };
}

function parseOrderBy(
  raw: string | undefined,
  violations: FieldViolation[],
): { sort: SortField; descending: boolean } {
  // Default order: creation order (the order of v1), made total by the creation sequence.
  const fallback = { sort: "created_at" as const, descending: false };
  if (raw === undefined || raw.trim() === "") return fallback;
  const words = raw.trim().split(/\s+/);
  const [field, direction, ...rest] = words;
  const describe = `must be one of ${SORT_FIELDS.join(", ")}, optionally followed by asc or desc (one field only), got ${JSON.stringify(raw)}`;
  if (
    !SORT_FIELDS.includes(field as SortField) ||
    rest.length > 0 ||
    (direction !== undefined && direction !== "asc" && direction !== "desc")
  ) {
    violations.push({ field: "order_by", description: describe });
    return fallback;
  }
  return { sort: field as SortField, descending: direction === "desc" };
}

/**
 * The identity of a query for page tokens: everything that selects and orders rows, nothing that
 * only pages through them (`page_size`, `skip`, `page_token`).
 *
 * @example
 * queryKey("groups", params); // "groups|name|asc|…"
 */
export function queryKey(kind: string, p: ListParams): string {
  return JSON.stringify([
    kind,
    p.sort,
    p.descending,
    p.name ?? null,
    p.childrenOf ?? null,
    p.descendantsOf ?? null,
    ...(p.filters.length === 0 ? [] : [p.filters]),
  ]);
}
