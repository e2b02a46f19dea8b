/**
 * The query of any List call (spec §4). Scoping filters combine with `name`.
 *
 * @example
 * const q: ListQuery = { descendantsOf: orgUid, orderBy: "name", pageSize: 200 };
 */
export interface ListQuery {
  /** `uidp.descendants_of`: anywhere below this group. */
  descendantsOf?: string | undefined;
  /** `uidp.children_of`: direct children of this group. */
  childrenOf?: string | undefined;
  /** Exact name. */
  name?: string | undefined;
  /** `name`, `name desc`, `created_at desc`, `uid`… */
  orderBy?: string | undefined;
  /** Results per page (server default 50, maximum 200). */
  pageSize?: number | undefined;
  pageToken?: string | undefined;
  /** Results to skip before this page. */
  skip?: number | undefined;
}

/**
 * The query of the advisories List. The published `ListAdvisoriesRequest` has no `name`
 * (chainguard-dev/sdk, proto/chainguard/platform/vulnerabilities/v2beta1/advisories.proto:355-448;
 * the service ignores one); it filters by `advisory_ids` (`:360`) and `aliases` (`:379`) instead,
 * each matching any of its values.
 *
 * @example
 * const q: AdvisoryListQuery = { descendantsOf: orgUid, aliases: ["CVE-2021-44228"] };
 * const log4shell = await client.advisories.collect(q);
 */
export interface AdvisoryListQuery extends Omit<ListQuery, "name"> {
  /** CGA identifiers (`CGA-xvgw-cvr7-9g2q`): advisories with any of them. */
  advisoryIds?: readonly string[] | undefined;
  /** Vulnerability identifiers (CVE, GHSA…): advisories with any of them among their aliases. */
  aliases?: readonly string[] | undefined;
}

/**
 * Any List query a resource client takes: the common one, or a kind's own with more filters.
 *
 * @example
 * const q: AnyListQuery = { childrenOf: uid, aliases: ["CVE-2026-0001"] };
 */
export type AnyListQuery = ListQuery & Omit<AdvisoryListQuery, keyof ListQuery>;

/**
 * A query parameter's value; an array is sent as the key repeated once per value (how
 * grpc-gateway fills a repeated field).
 *
 * @example
 * const v: QueryValue = ["CVE-2026-0001", "GHSA-xxxx-yyyy-zzzz"];
 */
export type QueryValue = string | number | readonly string[] | undefined;

/**
 * The wire query parameters of a list query.
 *
 * @example
 * toQueryParams({ childrenOf: uid, pageSize: 10 }); // { "uidp.children_of": uid, page_size: 10 }
 * toQueryParams({ aliases: ["CVE-1", "CVE-2"] });  // { aliases: ["CVE-1", "CVE-2"], … }
 */
export function toQueryParams(q: AnyListQuery): Record<string, QueryValue> {
  return {
    "uidp.descendants_of": q.descendantsOf,
    "uidp.children_of": q.childrenOf,
    name: q.name,
    advisory_ids: q.advisoryIds,
    aliases: q.aliases,
    order_by: q.orderBy,
    page_size: q.pageSize,
    page_token: q.pageToken,
    skip: q.skip,
  };
}
