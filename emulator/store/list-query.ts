import type { SQLInputValue } from "node:sqlite";
import type { Database } from "./database.js";
import type { ResourceRow } from "./resource-table.js";
import { ROW_COLUMNS } from "./resource-table.js";

/**
 * A sort field of `order_by`.
 *
 * @example
 * const sort: SortField = "created_at";
 * readPage(db, { kind: "groups", sort, descending: true, offset: 0, limit: 51 });
 */
export type SortField = "name" | "created_at" | "uid";

/**
 * A position in a sort order: the sort value and the uid of the last row returned.
 *
 * @example
 * const after: Cursor = [sortValue(last, "name"), last.uid];
 * readPage(db, { kind: "groups", sort: "name", descending: false, after, offset: 0, limit: 51 });
 */
export type Cursor = readonly [value: string | number, uid: string];

/**
 * What a list asks the table for.
 *
 * @example
 * const q: RowQuery = { kind: "identities", descendantsOf: orgUid, sort: "uid", descending: false };
 * countRows(db, { ...q, readableScopes: caller.readableScopes });
 */
export interface RowQuery {
  kind: string;
  /** Only rows whose parent is this uid. */
  childrenOf?: string | undefined;
  /** Only rows anywhere below this uid. */
  descendantsOf?: string | undefined;
  /** `descendantsOf` also matches the uid itself (a kind whose uid is its group's). */
  includeSelf?: boolean | undefined;
  /** Only rows with exactly this name. */
  name?: string | undefined;
  /**
   * Only rows whose stored field (a string, or any item of a list of strings) is one of the values,
   * for every filter. Fields come from the kinds' rules, never from a request.
   */
  anyOf?: readonly { field: string; values: readonly string[] }[] | undefined;
  sort: SortField;
  descending: boolean;
  /**
   * Group uids the caller may read (rows whose scope is one of them or below one). `undefined`: no
   * restriction.
   */
  readableScopes?: readonly string[] | undefined;
  /** More groups the caller may read rows of, exactly (not below): custom roles of ancestors. */
  readableExact?: readonly string[] | undefined;
  /**
   * A kind with flat uids placed by scope (roles): `descendantsOf` matches the scope group itself
   * and below, and rows without a scope (built-in roles) pass every scoping filter.
   */
  byScope?: boolean | undefined;
}

/**
 * One page request: the query, where to continue, how many to skip and return.
 *
 * @example
 * const q: RowPageQuery = {
 *   kind: "repos",
 *   descendantsOf: orgUid,
 *   sort: "name",
 *   descending: false,
 *   offset: 0,
 *   limit: 51,
 *   walkOrder: true,
 * };
 * readPage(db, q);
 */
export interface RowPageQuery extends RowQuery {
  after?: Cursor | undefined;
  offset: number;
  limit: number;
  /**
   * Walk the index of the requested order and filter, instead of reading the matching range and
   * sorting it: the better plan when the filter matches a large share of the kind.
   */
  walkOrder?: boolean | undefined;
}

// `/` is followed by `0` in ASCII, so "below X" is the half-open range (X + "/", X + "0"): an index
// range scan instead of a LIKE.
const below = (uid: string): [string, string] => [`${uid}/`, `${uid}0`];

// With a name filter the name indexes are the selective ones; without statistics SQLite would rather
// walk the kind index to avoid a sort, which reads every row of the kind.
// With `walkOrder` (a subtree holding much of the kind) the order's own index is walked: a sort of
// the whole subtree for every offset page costs far more than skipping the few rows outside it.
function indexHint(q: RowQuery & { walkOrder?: boolean | undefined }): string {
  // Flat kinds are small (roles): the planner's choice is good enough.
  if (q.byScope) return "";
  if (q.walkOrder && q.name === undefined && q.sort !== "uid")
    return q.sort === "name" ? " INDEXED BY resources_by_name" : " INDEXED BY resources_by_kind";
  if (q.name === undefined) return "";
  return q.childrenOf !== undefined ? " INDEXED BY resources_by_sibling" : " INDEXED BY resources_by_name";
}

function where(q: RowQuery): { sql: string; params: SQLInputValue[] } {
  const parts = ["kind = ?"];
  const params: SQLInputValue[] = [q.kind];
  const scoping: string[] = [];
  const scopingParams: SQLInputValue[] = [];
  if (q.childrenOf !== undefined) {
    scoping.push("parent_uid = ?");
    scopingParams.push(q.childrenOf);
  }
  if (q.descendantsOf !== undefined) {
    scoping.push(
      q.byScope
        ? "(scope_uid = ? OR (scope_uid > ? AND scope_uid < ?))"
        : q.includeSelf
          ? "(uid = ? OR (uid > ? AND uid < ?))"
          : "uid > ? AND uid < ?",
    );
    if (q.byScope || q.includeSelf) scopingParams.push(q.descendantsOf);
    scopingParams.push(...below(q.descendantsOf));
  }
  if (scoping.length > 0) {
    parts.push(q.byScope ? `(scope_uid = '' OR (${scoping.join(" AND ")}))` : scoping.join(" AND "));
    params.push(...scopingParams);
  }
  if (q.name !== undefined) {
    parts.push("name = ?");
    params.push(q.name);
  }
  for (const f of q.anyOf ?? []) {
    // json_each walks a list's items, and yields a plain value as its only row.
    parts.push(
      `EXISTS (SELECT 1 FROM json_each(data, ?) WHERE value IN (${f.values.map(() => "?").join(", ")}))`,
    );
    params.push(`$.${f.field}`, ...f.values);
  }
  if (q.readableScopes !== undefined) {
    const alternatives = q.readableScopes.map(() => "scope_uid = ? OR (scope_uid > ? AND scope_uid < ?)");
    for (const s of q.readableScopes) params.push(s, ...below(s));
    for (const s of q.readableExact ?? []) {
      alternatives.push("scope_uid = ?");
      params.push(s);
    }
    parts.push(alternatives.length === 0 ? "0" : `(${alternatives.join(" OR ")})`);
  }
  return { sql: parts.join(" AND "), params };
}

/**
 * The sort value of a row for a sort field (what a cursor stores).
 *
 * @example
 * sortValue(row, "name"); // row.name
 */
export function sortValue(row: ResourceRow, sort: SortField): string | number {
  return sort === "name" ? row.name : sort === "created_at" ? row.seq : row.uid;
}

/**
 * Reads one page. Cursors are keyset conditions on an index — `(name, uid) > (?, ?)`, `seq > ?`,
 * `uid > ?` — so a deep page costs what the first one does; `offset` (the `skip` parameter) is an
 * SQL OFFSET, which walks the skipped index entries.
 *
 * @example
 * readPage(db, { kind: "groups", sort: "name", descending: false, offset: 0, limit: 51 });
 */
export function readPage(db: Database, q: RowPageQuery): ResourceRow[] {
  const w = where(q);
  let sql = `SELECT ${ROW_COLUMNS} FROM resources${indexHint(q)} WHERE ${w.sql}`;
  const params = [...w.params];
  const op = q.descending ? "<" : ">";
  const dir = q.descending ? "DESC" : "ASC";
  if (q.after !== undefined) {
    if (q.sort === "name") {
      sql += ` AND (name, uid) ${op} (?, ?)`;
      params.push(q.after[0], q.after[1]);
    } else if (q.sort === "created_at") {
      sql += ` AND seq ${op} ?`;
      params.push(q.after[0]);
    } else {
      sql += ` AND uid ${op} ?`;
      params.push(q.after[1]);
    }
  }
  // Every order ends in a unique column, so the order is total and cursors never skip or repeat.
  const orderBy =
    q.sort === "name" ? `name ${dir}, uid ${dir}` : q.sort === "created_at" ? `seq ${dir}` : `uid ${dir}`;
  sql += ` ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
  params.push(q.limit, q.offset);
  return db.statement(sql).all(...params) as unknown as ResourceRow[];
}

/**
 * Counts the rows matching a query (cursor and offset ignored).
 *
 * @example
 * countRows(db, { kind: "groups", sort: "uid", descending: false });
 */
export function countRows(db: Database, q: RowQuery): number {
  const w = where(q);
  const row = db
    .statement(`SELECT count(*) AS n FROM resources${indexHint(q)} WHERE ${w.sql}`)
    .get(...w.params) as {
    n: number;
  };
  return row.n;
}
