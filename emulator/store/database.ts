import type { StatementSync } from "node:sqlite";
import { DatabaseSync } from "node:sqlite";
import { makePrivateFile } from "./private-file.js";

// One table for every kind: the list machinery (filters, keyset cursors, counts, authz scoping) is
// then written once. `seq` is the rowid, so creation order is the table's natural order and every
// index on (kind, …) already ends in it.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS resources (
  seq INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  uid TEXT NOT NULL,
  parent_uid TEXT NOT NULL,
  scope_uid TEXT NOT NULL,
  name TEXT NOT NULL,
  ref_identity TEXT,
  ref_role TEXT,
  data TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS resources_by_uid ON resources (kind, uid);
CREATE INDEX IF NOT EXISTS resources_by_kind ON resources (kind);
CREATE INDEX IF NOT EXISTS resources_by_name ON resources (kind, name, uid);
CREATE INDEX IF NOT EXISTS resources_by_parent ON resources (parent_uid, kind);
CREATE INDEX IF NOT EXISTS resources_by_sibling ON resources (kind, parent_uid, name);
CREATE INDEX IF NOT EXISTS resources_by_scope ON resources (kind, scope_uid);
CREATE INDEX IF NOT EXISTS bindings_by_identity ON resources (ref_identity) WHERE ref_identity IS NOT NULL;
CREATE INDEX IF NOT EXISTS bindings_by_role ON resources (ref_role) WHERE ref_role IS NOT NULL;
`;

/**
 * The emulator's SQLite database (`node:sqlite`): in memory, or a file that keeps state across
 * restarts. Prepared statements are cached by their SQL text; every write goes through
 * {@link Database.transaction}.
 *
 * @example
 * const db = new Database(undefined); // in memory
 * db.transaction(() => db.setMeta("k", "v"));
 */
export class Database {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;
  private readonly control: { begin: StatementSync; commit: StatementSync; rollback: StatementSync };
  /** Whether this run created the schema (a new database: fixtures are loaded only then). */
  readonly fresh: boolean;

  constructor(file: string | undefined) {
    // It holds the admin token and the signing keys: owner-only (0600), however the umask is set.
    if (file !== undefined && file !== ":memory:") makePrivateFile(file);
    this.db = new DatabaseSync(file ?? ":memory:");
    if (file !== undefined) {
      // WAL keeps readers and the writer apart; NORMAL is durable enough for an emulator.
      this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    }
    const existing = this.db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'resources'")
      .get() as { n: number };
    this.fresh = existing.n === 0;
    this.db.exec(SCHEMA);
    this.control = {
      begin: this.db.prepare("BEGIN IMMEDIATE"),
      commit: this.db.prepare("COMMIT"),
      rollback: this.db.prepare("ROLLBACK"),
    };
  }

  /**
   * A prepared statement for `sql`, compiled once.
   *
   * @example
   * db.statement("SELECT data FROM resources WHERE kind = ? AND uid = ?").get("groups", uid);
   */
  statement(sql: string): StatementSync {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * Runs `fn` in a transaction (nested calls join the outer one); rolls back when it throws.
   *
   * @example
   * db.transaction(() => { insert(a); insert(b); });
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    // Prepared once and held rather than `exec`: every API write runs one transaction, and `exec`
    // would parse its SQL again each time (issue 40).
    this.control.begin.run();
    this.depth++;
    try {
      const result = fn();
      this.control.commit.run();
      return result;
    } catch (e) {
      this.control.rollback.run();
      throw e;
    } finally {
      this.depth--;
    }
  }

  /**
   * A value of the `meta` table (org uid, keys, secrets).
   *
   * @example
   * db.getMeta("orgUid");
   */
  getMeta(key: string): string | undefined {
    const row = this.statement("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  /**
   * Sets a value of the `meta` table.
   *
   * @example
   * db.setMeta("orgUid", uid);
   */
  setMeta(key: string, value: string): void {
    this.statement(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run(key, value);
  }

  /**
   * Closes the database; the object is unusable afterwards.
   *
   * @example
   * db.close();
   */
  close(): void {
    this.statements.clear();
    if (this.db.isOpen) this.db.close();
  }
}
