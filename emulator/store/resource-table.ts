import type { StatementSync } from "node:sqlite";
import type { Database } from "./database.js";

/**
 * One stored resource. `data` is the JSON the API answers (for role bindings: the unhydrated form).
 *
 * @example
 * const row: ResourceRow | undefined = table.get("groups", uid);
 * const group = row && JSON.parse(row.data);
 */
export interface ResourceRow {
  seq: number;
  kind: string;
  uid: string;
  /** Uid of the parent (a group, a repo for tags); empty for roles. */
  parentUid: string;
  /** Uid of the group whose permissions govern access; empty for roles (readable by everyone). */
  scopeUid: string;
  /** Name, the target of name filters and ordering; empty for role bindings (they have none). */
  name: string;
  /** Role bindings: the bound identity. */
  refIdentity: string | null;
  /** Role bindings: the bound role. */
  refRole: string | null;
  data: string;
}

/**
 * What an insert supplies (the table assigns `seq`).
 *
 * @example
 * const row: NewResourceRow = {
 *   kind: "roles",
 *   uid: roleUid,
 *   parentUid: "",
 *   scopeUid: "",
 *   name: "auditor",
 *   refIdentity: null,
 *   refRole: null,
 *   data: JSON.stringify({ uid: roleUid, name: "auditor" }),
 * };
 * table.insert(row);
 */
export type NewResourceRow = Omit<ResourceRow, "seq">;

/**
 * The columns of a {@link ResourceRow}, as a SELECT list.
 *
 * @example
 * db.statement(`SELECT ${ROW_COLUMNS} FROM resources WHERE kind = ? AND uid = ?`).get("groups", uid);
 */
export const ROW_COLUMNS =
  "seq, kind, uid, parent_uid AS parentUid, scope_uid AS scopeUid, name, ref_identity AS refIdentity, ref_role AS refRole, data";

// The SQL of every method, prepared once per table: these run on every request, and looking a
// statement up by its text hashes that text each time (issue 40).
const SQL = {
  get: `SELECT ${ROW_COLUMNS} FROM resources WHERE kind = ? AND uid = ?`,
  data: "SELECT data FROM resources WHERE kind = ? AND uid = ?",
  has: "SELECT EXISTS (SELECT 1 FROM resources WHERE kind = ? AND uid = ?) AS found",
  findByName: "SELECT uid FROM resources WHERE kind = ? AND name = ? AND parent_uid = ? LIMIT 1",
  insert:
    "INSERT INTO resources (kind, uid, parent_uid, scope_uid, name, ref_identity, ref_role, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  update:
    "UPDATE resources SET name = ?, ref_identity = ?, ref_role = ?, data = ? WHERE kind = ? AND uid = ?",
  updateData: "UPDATE resources SET data = ? WHERE kind = ? AND uid = ?",
  delete: "DELETE FROM resources WHERE kind = ? AND uid = ?",
  children: `SELECT ${ROW_COLUMNS} FROM resources WHERE parent_uid = ? ORDER BY seq LIMIT ?`,
  hasChildren: "SELECT EXISTS (SELECT 1 FROM resources WHERE parent_uid = ?) AS found",
  countChildren: "SELECT count(*) AS n FROM resources WHERE parent_uid = ?",
  referringToIdentity: `SELECT ${ROW_COLUMNS} FROM resources WHERE ref_identity = ? ORDER BY seq`,
  referringToRole: `SELECT ${ROW_COLUMNS} FROM resources WHERE ref_role = ? ORDER BY seq LIMIT ?`,
  deleteReferringToIdentity: "DELETE FROM resources WHERE ref_identity = ?",
  all: `SELECT ${ROW_COLUMNS} FROM resources WHERE kind = ? ORDER BY seq`,
} as const;

/**
 * Row-level access to the `resources` table. Every method is one prepared statement, held by the
 * table; a write generation counter lets callers cache derived data (counts, permissions) until
 * the next write.
 *
 * @example
 * const table = new ResourceTable(db);
 * const row = table.get("groups", uid);
 */
export class ResourceTable {
  /** Incremented by every write; caches keyed by it are valid until it moves. */
  generation = 0;
  private readonly s: Readonly<Record<keyof typeof SQL, StatementSync>>;

  constructor(readonly db: Database) {
    this.s = Object.fromEntries(Object.entries(SQL).map(([k, sql]) => [k, db.statement(sql)])) as Record<
      keyof typeof SQL,
      StatementSync
    >;
  }

  /**
   * The row of `kind` with `uid`.
   *
   * @example
   * table.get("identities", uid)?.data;
   */
  get(kind: string, uid: string): ResourceRow | undefined {
    return this.s.get.get(kind, uid) as ResourceRow | undefined;
  }

  /**
   * Only the stored JSON of the row of `kind` with `uid`: the one column most readers need, without
   * the cost of building a whole {@link ResourceRow} (node:sqlite makes an object per row, a
   * property per column).
   *
   * @example
   * const role = table.data("roles", roleUid);
   */
  data(kind: string, uid: string): string | undefined {
    return (this.s.data.get(kind, uid) as { data: string } | undefined)?.data;
  }

  /**
   * Whether a row of `kind` with `uid` exists, without reading it.
   *
   * @example
   * if (!table.has("groups", parentUid)) throw notFound("group", parentUid);
   */
  has(kind: string, uid: string): boolean {
    return (this.s.has.get(kind, uid) as { found: number }).found === 1;
  }

  /**
   * The uid of a resource of `kind` under `parentUid` named `name`, if any (sibling name clash).
   *
   * @example
   * table.findByName("groups", parentUid, "platform");
   */
  findByName(kind: string, parentUid: string, name: string): string | undefined {
    const row = this.s.findByName.get(kind, name, parentUid) as { uid: string } | undefined;
    return row?.uid;
  }

  /**
   * Inserts a row; returns its `seq`.
   *
   * @example
   * table.insert({ kind: "groups", uid, parentUid, scopeUid: uid, name, refIdentity: null, refRole: null, data });
   */
  insert(row: NewResourceRow): number {
    this.generation++;
    const r = this.s.insert.run(
      row.kind,
      row.uid,
      row.parentUid,
      row.scopeUid,
      row.name,
      row.refIdentity,
      row.refRole,
      row.data,
    );
    return Number(r.lastInsertRowid);
  }

  /**
   * Replaces the mutable columns of a row (a binding's identity too: its identity is updatable).
   *
   * @example
   * table.update("groups", uid, { name, refIdentity: null, refRole: null, data });
   */
  update(
    kind: string,
    uid: string,
    change: { name: string; refIdentity: string | null; refRole: string | null; data: string },
  ): void {
    this.generation++;
    this.s.update.run(change.name, change.refIdentity, change.refRole, change.data, kind, uid);
  }

  /**
   * Replaces only the stored JSON (service-set fields such as `lastSeenTime`).
   *
   * @example
   * table.updateData("identities", uid, JSON.stringify(identity));
   */
  updateData(kind: string, uid: string, data: string): void {
    this.generation++;
    this.s.updateData.run(data, kind, uid);
  }

  /**
   * Deletes a row; returns whether it existed.
   *
   * @example
   * table.delete("groups", uid);
   */
  delete(kind: string, uid: string): boolean {
    this.generation++;
    return this.s.delete.run(kind, uid).changes > 0;
  }

  /**
   * Direct children of `parentUid` of any kind, in creation order, at most `limit`.
   *
   * @example
   * table.children(groupUid, 21);
   */
  children(parentUid: string, limit: number): ResourceRow[] {
    return this.s.children.all(parentUid, limit) as unknown as ResourceRow[];
  }

  /**
   * Whether `parentUid` has any direct child: one index probe, where {@link children} also sorts
   * (every group delete asks this first).
   *
   * @example
   * if (table.hasChildren(groupUid)) refuse(table.children(groupUid, 21));
   */
  hasChildren(parentUid: string): boolean {
    return (this.s.hasChildren.get(parentUid) as { found: number }).found === 1;
  }

  /**
   * How many direct children `parentUid` has, of any kind.
   *
   * @example
   * table.countChildren(groupUid);
   */
  countChildren(parentUid: string): number {
    return (
      this.s.countChildren.get(parentUid) as {
        n: number;
      }
    ).n;
  }

  /**
   * Rows referring to an identity (its role bindings).
   *
   * @example
   * table.referringToIdentity(identityUid);
   */
  referringToIdentity(identityUid: string): ResourceRow[] {
    return this.s.referringToIdentity.all(identityUid) as unknown as ResourceRow[];
  }

  /**
   * Rows referring to a role (its role bindings), at most `limit`.
   *
   * @example
   * table.referringToRole(roleUid, 21);
   */
  referringToRole(roleUid: string, limit: number): ResourceRow[] {
    return this.s.referringToRole.all(roleUid, limit) as unknown as ResourceRow[];
  }

  /**
   * Deletes the rows referring to an identity; returns how many.
   *
   * @example
   * table.deleteReferringToIdentity(identityUid);
   */
  deleteReferringToIdentity(identityUid: string): number {
    this.generation++;
    return Number(this.s.deleteReferringToIdentity.run(identityUid).changes);
  }

  /**
   * Every row of a kind in creation order (small kinds: roles, bindings of one caller…).
   *
   * @example
   * table.all("roles");
   */
  all(kind: string): ResourceRow[] {
    return this.s.all.all(kind) as unknown as ResourceRow[];
  }
}
