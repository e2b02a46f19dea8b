import { earliest, isStackLock, lockTime } from "./stack-lock.js";

const LOCKS = ".pulumi/locks/";

/**
 * Whether a backend URL is the Pulumi CLI's PostgreSQL DIY backend (`postgres://…`).
 *
 * @example
 * isPostgresBackend("postgres://pulumi@db:5432/state"); // true
 */
export function isPostgresBackend(url: string | undefined): url is string {
  return url?.startsWith("postgres://") === true || url?.startsWith("postgresql://") === true;
}

/**
 * The URL with its password masked, for messages (the CLI's `whoami` shows it in full).
 *
 * @example
 * maskedUrl("postgres://ci:s3cret@db:5432/state"); // "postgres://ci:****@db:5432/state"
 */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== "") u.password = "****";
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//****@");
  }
}

/**
 * How the CLI's PostgreSQL backend (Go, lib/pq) reads a URL, as options of node-postgres: the state
 * table comes from `?table=` (default `pulumi_state`) and is not a connection parameter; without
 * `sslmode` lib/pq requires TLS without verifying the certificate, and so does libpq's `require`.
 */
function connection(url: string): { connectionString: string; table: string } {
  const u = new URL(url);
  const table = u.searchParams.get("table") ?? "pulumi_state";
  // The CLI puts the name into its SQL as it is: anything but a plain (schema-qualified) name is refused.
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(table))
    throw new Error(`the table name ${JSON.stringify(table)} of the backend URL is not a plain SQL name`);
  u.searchParams.delete("table");
  if (!u.searchParams.has("sslmode")) u.searchParams.set("sslmode", "require");
  u.searchParams.set("uselibpqcompat", "true");
  return { connectionString: u.toString(), table };
}

/** The part of node-postgres (`pg`) the lock reading uses. */
export type PgModule = typeof import("pg")["default"];

/**
 * Loads node-postgres, an optional peer dependency of pulumi-irv (only `recover` on a `postgres://`
 * backend needs it, so nobody else installs it). Missing, it is one line saying what to install.
 *
 * @example
 * const pg = await loadPg(); // or throws: recover needs the "pg" package to read a postgres:// backend…
 */
export async function loadPg(
  load: () => Promise<{ default: PgModule }> = () => import("pg"),
): Promise<PgModule> {
  try {
    return (await load()).default;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND")
      throw new Error(
        'recover needs the "pg" package to read the locks of a postgres:// state backend: install it beside pulumi-irv (npm install pg)',
      );
    throw err;
  }
}

/**
 * When the run holding the lock of a stack in the CLI's PostgreSQL backend began, or undefined
 * when no lock is held. The backend keeps each file of the DIY layout as a row of its state table
 * (`key`, `data` = `{"data": <base64 of the content>}`), a lock under `…/.pulumi/locks/…`.
 *
 * @example
 * await postgresLockTakenAt("postgres://ci@db:5432/state", "dev", "infra"); // 1795000000000
 */
export async function postgresLockTakenAt(
  url: string,
  stackName: string,
  projectName?: string,
): Promise<number | undefined> {
  const { connectionString, table } = connection(url);
  // Loaded only for this backend: recover on any other needs no database driver.
  const pg = await loadPg();
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 15_000 });
  await client.connect();
  try {
    const rows = await client.query<{ key: string; data: string | null }>(
      `SELECT key, data->>'data' AS data FROM ${table} WHERE strpos(key, $1) > 0`,
      [LOCKS],
    );
    return earliest(
      rows.rows
        .filter((r) => isStackLock(r.key.slice(r.key.indexOf(LOCKS) + LOCKS.length), stackName, projectName))
        .map((r) => (r.data === null ? undefined : lockTime(Buffer.from(r.data, "base64").toString("utf8")))),
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
