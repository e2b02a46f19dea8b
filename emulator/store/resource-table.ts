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

/**
 * Row-level access to the `resources` table. Every method is one cached prepared statement; a
 * write generation counter lets callers cache derived data (counts, permissions) until the next
 * write.
 *
 * @example
 * const table = new ResourceTable(db);
 * const row = table.get("groups", uid);
 */
export class ResourceTable {
  /** Incremented by every write; caches keyed by it are valid until it moves. */
  generation = 0;

  constructor(readonly db: Database) {}

  /**
   * The row of `kind` with `uid`.
   *
   * @example
   * table.get("identities", uid)?.data;
   */
  get(kind: string, uid: string): ResourceRow | undefined {
    return this.db
      .statement(`SELECT ${ROW_COLUMNS} FROM resources WHERE kind = ? AND uid = ?`)
      .get(kind, uid) as ResourceRow | undefined;
  }

  /**
   * The uid of a resource of `kind` under `parentUid` named `name`, if any (sibling name clash).
   *
   * @example
   * table.findByName("groups", parentUid, "platform");
   */
  findByName(kind: string, parentUid: string, name: string): string | undefined {
    const row = this.db
      .statement("SELECT uid FROM resources WHERE kind = ? AND name = ? AND parent_uid = ? LIMIT 1")
      .get(kind, name, parentUid) as { uid: string } | undefined;
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
    const r = this.db
      .statement(
        "INSERT INTO resources (kind, uid, parent_uid, scope_uid, name, ref_identity, ref_role, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(row.kind, row.uid, row.parentUid, row.scopeUid, row.name, row.refIdentity, row.refRole, row.data);
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
    this.db
      .statement(
        "UPDATE resources SET name = ?, ref_identity = ?, ref_role = ?, data = ? WHERE kind = ? AND uid = ?",
      )
      .run(change.name, change.refIdentity, change.refRole, change.data, kind, uid);
  }

  /**
   * Replaces only the stored JSON (service-set fields such as `lastSeenTime`).
   *
   * @example
   * table.updateData("identities", uid, JSON.stringify(identity));
   */
  updateData(kind: string, uid: string, data: string): void {
    this.generation++;
    this.db.statement("UPDATE resources SET data = ? WHERE kind = ? AND uid = ?").run(data, kind, uid);
  }

  /**
   * Deletes a row; returns whether it existed.
   *
   * @example
   * table.delete("groups", uid);
   */
  delete(kind: string, uid: string): boolean {
    this.generation++;
    return this.db.statement("DELETE FROM resources WHERE kind = ? AND uid = ?").run(kind, uid).changes > 0;
  }

  /**
   * Direct children of `parentUid` of any kind, in creation order, at most `limit`.
   *
   * @example
   * table.children(groupUid, 21);
   */
  children(parentUid: string, limit: number): ResourceRow[] {
    return this.db
      .statement(`SELECT ${ROW_COLUMNS} FROM resources WHERE parent_uid = ? ORDER BY seq LIMIT ?`)
      .all(parentUid, limit) as unknown as ResourceRow[];
  }

  /**
   * How many direct children `parentUid` has, of any kind.
   *
   * @example
   * table.countChildren(groupUid);
   */
  countChildren(parentUid: string): number {
    return (
      this.db.statement("SELECT count(*) AS n FROM resources WHERE parent_uid = ?").get(parentUid) as {
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
    return this.db
      .statement(`SELECT ${ROW_COLUMNS} FROM resources WHERE ref_identity = ? ORDER BY seq`)
      .all(identityUid) as unknown as ResourceRow[];
  }

  /**
   * Rows referring to a role (its role bindings), at most `limit`.
   *
   * @example
   * table.referringToRole(roleUid, 21);
   */
  referringToRole(roleUid: string, limit: number): ResourceRow[] {
    return this.db
      .statement(`SELECT ${ROW_COLUMNS} FROM resources WHERE ref_role = ? ORDER BY seq LIMIT ?`)
      .all(roleUid, limit) as unknown as ResourceRow[];
  }

  /**
   * Deletes the rows referring to an identity; returns how many.
   *
   * @example
   * table.deleteReferringToIdentity(identityUid);
   */
  deleteReferringToIdentity(identityUid: string): number {
    this.generation++;
    return Number(this.db.statement("DELETE FROM resources WHERE ref_identity = ?").run(identityUid).changes);
  }

  /**
   * Every row of a kind in creation order (small kinds: roles, bindings of one caller…).
   *
   * @example
   * table.all("roles");
   */
  all(kind: string): ResourceRow[] {
    return this.db
      .statement(`SELECT ${ROW_COLUMNS} FROM resources WHERE kind = ? ORDER BY seq`)
      .all(kind) as unknown as ResourceRow[];
  }
}
