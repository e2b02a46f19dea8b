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
 * The wire query parameters of a {@link ListQuery}.
 *
 * @example
 * toQueryParams({ childrenOf: uid, pageSize: 10 }); // { "uidp.children_of": uid, page_size: 10 }
 */
export function toQueryParams(q: ListQuery): Record<string, string | number | undefined> {
  return {
    "uidp.descendants_of": q.descendantsOf,
    "uidp.children_of": q.childrenOf,
    name: q.name,
    order_by: q.orderBy,
    page_size: q.pageSize,
    page_token: q.pageToken,
    skip: q.skip,
  };
}
