import type { KindName } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { ancestorUid, notFound, permissionDenied } from "../core/index.js";
import type { QueryValues } from "../lists/index.js";
import { parseListParams, queryKey } from "../lists/index.js";
import type { ResourceRow, RowQuery } from "../store/index.js";
import { countRows, readPage, sortValue } from "../store/index.js";
import type { KindRules } from "./kind-rules.js";
import { capabilityFor, KIND_RULES } from "./kind-rules.js";
import type { ServiceCore } from "./service-core.js";

// Every group above the given ones (custom roles defined there can be bound in them).
function ancestorsOf(scopes: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of scopes) for (let a = ancestorUid(s, 1); a !== undefined; a = ancestorUid(a, 1)) out.add(a);
  return [...out];
}

/**
 * How a kind's stored rows are answered to one caller: what the gRPC transport needs to encode them
 * into messages row by row (issue 47).
 *
 * @example
 * const got = reads.getStored(caller, "groups", uid);
 * if (got.storedAlone) cache.set(got.stored, encode(got.output(got.stored)));
 */
export interface RowAnswers {
  /**
   * Whether a row's answer is a function of its stored text alone (see
   * {@link ServiceCore.outputIsStoredAlone}): then equal texts answer equal objects, to every caller.
   */
  readonly storedAlone: boolean;
  /** A row's answer to the caller, as its wire object (the protojson form of its message). */
  output(stored: string): Record<string, unknown>;
}

/**
 * A Get's row as stored, and how it is answered.
 *
 * @example
 * const got = reads.getStored(caller, "groups", uid);
 * got.output(got.stored).name;
 */
export interface StoredRow extends RowAnswers {
  /** The row's stored JSON text. */
  readonly stored: string;
}

/**
 * A List page as its rows as stored, how they are answered, and the page's own fields.
 *
 * @example
 * const page = reads.listStored(caller, "groups", { page_size: "10" });
 * page.rows.map((stored) => page.output(stored).uid);
 */
export interface StoredPage extends RowAnswers {
  /** Each row's stored JSON text, in answer order. */
  readonly rows: readonly string[];
  /** The token of the next page; undefined on the last. */
  readonly nextPageToken: string | undefined;
  /** How many rows the List's filters match (every page). */
  readonly totalCount: number;
  /** How many rows `skip` really skipped. */
  readonly skipped: number;
}

/**
 * The read part of the API: List (filtered to what the caller may read, never refused), Get (the
 * capability first, so a denied caller learns nothing of existence) and the v1 lists.
 *
 * @example
 * const reads = new ResourceReads(core);
 * reads.get(caller, "groups", uid);
 */
export class ResourceReads {
  private readonly counts = new Map<string, { generation: number; n: number }>();

  constructor(private readonly core: ServiceCore) {}

  /**
   * A List (AIP-132/158): filters, order, cursor or skip; only rows the caller may read.
   *
   * @example
   * reads.list(caller, "groups", { "uidp.children_of": orgUid, page_size: "10" });
   */
  list(caller: Caller, kind: KindName, query: QueryValues): string {
    const { rules, page, next, total, skipped } = this.page(caller, kind, query);
    const items = page.map((r) => this.core.output(rules, r.data, caller)).join(",");
    return `{"${rules.spec.collection}":[${items}]${next === undefined ? "" : `,"nextPageToken":"${next}"`},"totalCount":"${total}","skipped":${skipped}}`;
  }

  /**
   * The same page as {@link list}, its rows as stored: what the gRPC transport encodes, row by row
   * (issue 47: it keeps a row's encoding by its stored text where that text alone decides it).
   *
   * @example
   * const page = reads.listStored(caller, "groups", { page_size: "10" });
   * page.rows.map((stored) => page.output(stored).uid);
   */
  listStored(caller: Caller, kind: KindName, query: QueryValues): StoredPage {
    const { rules, page, next, total, skipped } = this.page(caller, kind, query);
    return {
      ...this.answers(caller, rules),
      rows: page.map((r) => r.data),
      nextPageToken: next,
      totalCount: total,
      skipped,
    };
  }

  // The rows of a List page, its next-page token, the total and how many rows were skipped.
  private page(
    caller: Caller,
    kind: KindName,
    query: QueryValues,
  ): { rules: KindRules; page: ResourceRow[]; next: string | undefined; total: number; skipped: number } {
    const rules = KIND_RULES[kind];
    const p = parseListParams(query, rules.listFilters);
    const key = queryKey(kind, p);
    const after = p.pageToken === undefined ? undefined : this.core.pageTokens.read(p.pageToken, key);
    const q: RowQuery = {
      kind,
      childrenOf: p.childrenOf,
      descendantsOf: p.descendantsOf,
      includeSelf: rules.uidIsParent,
      // A kind whose published List has no `name` ignores it, as the gateway does.
      name: rules.nameFilter ? p.name : undefined,
      anyOf: p.filters,
      sort: p.sort,
      descending: p.descending,
      ...this.readable(caller, rules),
    };
    const total = this.count(q);
    // A subtree holding a quarter or more of its kind is read in index order (see readPage).
    const walkOrder =
      q.descendantsOf !== undefined &&
      total * 4 >= this.count({ kind, sort: p.sort, descending: p.descending });
    const db = this.core.db;
    const rows = readPage(db, { ...q, after, offset: p.skip, limit: p.pageSize + 1, walkOrder });
    const page = rows.slice(0, p.pageSize);
    const last = page[page.length - 1];
    const next =
      rows.length > p.pageSize && last !== undefined
        ? this.core.pageTokens.issue(key, [sortValue(last, p.sort), last.uid])
        : undefined;
    let skipped = p.skip;
    if (p.skip > 0 && rows.length === 0) {
      // Fewer rows than `skip` remained: report how many were really skipped.
      skipped =
        after === undefined
          ? Math.min(p.skip, total)
          : readPage(db, { ...q, after, offset: 0, limit: p.skip }).length;
    }
    return { rules, page, next, total, skipped };
  }

  // The rows a caller may list: those of the groups where it holds `<family>.list`; for roles also
  // the built-in ones and custom roles of the groups above (they can be bound there).
  private readable(
    caller: Caller,
    rules: KindRules,
  ): Pick<RowQuery, "readableScopes" | "readableExact" | "byScope"> {
    const scopes = caller.scopesWith(capabilityFor(rules, "list"));
    if (rules.scopeDepth !== undefined) return { readableScopes: scopes };
    return {
      byScope: true,
      readableScopes: scopes,
      readableExact: scopes === undefined ? undefined : ["", ...ancestorsOf(scopes)],
    };
  }

  private count(q: RowQuery): number {
    const generation = this.core.table.generation;
    const key = JSON.stringify([
      q.kind,
      q.childrenOf,
      q.descendantsOf,
      q.name,
      q.anyOf,
      q.readableScopes,
      q.readableExact,
    ]);
    const hit = this.counts.get(key);
    if (hit?.generation === generation) return hit.n;
    const n = countRows(this.core.db, q);
    if (this.counts.size > 1000) this.counts.clear();
    this.counts.set(key, { generation, n });
    return n;
  }

  /**
   * A Get by uid. Custom roles the caller may not read are "not found": their flat uid gives no
   * group to be denied in.
   *
   * @example
   * reads.get(caller, "groups", uid);
   */
  get(caller: Caller, kind: KindName, uid: string): string {
    const rules = KIND_RULES[kind];
    return this.core.output(rules, this.stored(caller, rules, uid), caller);
  }

  /**
   * The same answer as {@link get}, its row as stored (see {@link listStored}).
   *
   * @example
   * const got = reads.getStored(caller, "groups", uid);
   * got.output(got.stored).name;
   */
  getStored(caller: Caller, kind: KindName, uid: string): StoredRow {
    const rules = KIND_RULES[kind];
    return { ...this.answers(caller, rules), stored: this.stored(caller, rules, uid) };
  }

  private answers(caller: Caller, rules: KindRules): RowAnswers {
    return {
      storedAlone: this.core.outputIsStoredAlone(rules),
      output: (stored) => this.core.outputObject(rules, stored, caller),
    };
  }

  // The stored JSON of a row the caller may read: every answer is made from it (see KindHooks.output).
  private stored(caller: Caller, rules: KindRules, uid: string): string {
    if (!this.core.mayRead(caller, rules, uid)) {
      if (rules.scopeDepth === undefined) throw notFound(rules.spec.singular, uid);
      throw permissionDenied(`read ${rules.spec.singular} ${JSON.stringify(uid)}`);
    }
    const data = this.core.table.data(rules.name, uid);
    if (data === undefined) throw notFound(rules.spec.singular, uid);
    return data;
  }

  /**
   * The v1 list of groups or repos (`{"items":[{id, name, createdAt, updatedAt, …}]}`), unpaged,
   * in creation order, optionally filtered by `id` (v1 had no Get).
   *
   * @example
   * reads.listV1(caller, "groups", { id: uid });
   */
  listV1(caller: Caller, kind: "groups" | "repos", query: QueryValues): string {
    const rules = KIND_RULES[kind];
    const id = query.id;
    let rows: ResourceRow[];
    if (typeof id === "string" && id !== "") {
      const row = this.core.table.get(kind, id);
      rows = row !== undefined && this.core.mayRead(caller, rules, id) ? [row] : [];
    } else {
      rows = readPage(this.core.db, {
        kind,
        sort: "created_at",
        descending: false,
        readableScopes: caller.scopesWith(capabilityFor(rules, "list")),
        offset: 0,
        limit: -1,
      });
    }
    const items = rows.map((r) => {
      const { uid, createTime, updateTime, ...rest } = JSON.parse(r.data) as Record<string, unknown>;
      return JSON.stringify({ id: uid, ...rest, createdAt: createTime, updatedAt: updateTime ?? createTime });
    });
    return `{"items":[${items.join(",")}]}`;
  }
}
