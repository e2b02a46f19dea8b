// A throwaway PostgreSQL server for the e2e tests and benchmarks of the Pulumi CLI's PostgreSQL DIY
// backend (`postgres://…`): Debian's server binaries, a fresh data directory, loopback only, a free
// port, trust authentication; stopped and removed after. Imports only Node built-ins.
//
// initdb and postgres refuse to run as root (CI and the sessions run as root), so as root they run
// as the unprivileged `postgres` user Debian's package creates (else `nobody`) through `runuser`, in
// a data directory that user owns. See docs/toolchain.md ("State backends").
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A running throwaway server.
 *
 * @example
 * const pg = await startPostgres();
 * const url = await pg.createDatabase("app");
 * await pg.stop();
 */
export interface PostgresServer {
  /** The loopback port it listens on. */
  readonly port: number;
  /** The directory of its server binaries (initdb, pg_ctl, psql…). */
  readonly binDir: string;
  /**
   * Creates a database and returns the `postgres://` URL of the Pulumi backend in it. The URL holds
   * a password the server ignores (trust authentication), so that tests can check it never shows.
   */
  createDatabase(name: string): Promise<string>;
  /** Runs one SQL statement in a database and returns psql's unaligned output. */
  sql(database: string, statement: string): string;
  /** Stops the server at once and deletes its data directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /**
   * Keep the server's durability settings (fsync, synchronous commit) as a team's server has them.
   * Default false: a throwaway test server skips them, which only matters after a power cut.
   */
  durable?: boolean;
}

/** The password every URL carries; the server (trust authentication) ignores it. */
export const POSTGRES_TEST_PASSWORD = "pg-test-secret";

const MAJOR_DIRS = "/usr/lib/postgresql";

/**
 * The directory holding `initdb` and `pg_ctl`: `IRV_POSTGRES_BIN`, else the newest of Debian's
 * `/usr/lib/postgresql/<major>/bin`, else the directory of `pg_ctl` on PATH; undefined when none.
 *
 * @example
 * postgresBinDir(); // "/usr/lib/postgresql/15/bin"
 */
export function postgresBinDir(): string | undefined {
  const has = (dir: string) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"));
  const fromEnv = process.env.IRV_POSTGRES_BIN;
  if (fromEnv !== undefined && fromEnv !== "") return has(fromEnv) ? fromEnv : undefined;
  if (existsSync(MAJOR_DIRS)) {
    const majors = readdirSync(MAJOR_DIRS)
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a));
    for (const m of majors) if (has(path.join(MAJOR_DIRS, m, "bin"))) return path.join(MAJOR_DIRS, m, "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v pg_ctl"], { encoding: "utf8" });
  const onPath = which.status === 0 ? path.dirname(which.stdout.trim()) : undefined;
  return onPath !== undefined && has(onPath) ? onPath : undefined;
}

/** The unprivileged user the server runs as when we are root, with its uid and gid. */
function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    const id = (flag: string) => spawnSync("id", [flag, name], { encoding: "utf8" });
    const uid = id("-u");
    const gid = id("-g");
    if (uid.status === 0 && gid.status === 0)
      return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error("running as root, and there is no postgres or nobody user to run PostgreSQL as");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Starts a throwaway PostgreSQL server on a free loopback port with a fresh data directory (as an
 * unprivileged user when we are root). Stop it with {@link PostgresServer.stop}.
 *
 * @example
 * const pg = await startPostgres();
 * process.env.PULUMI_BACKEND_URL = await pg.createDatabase("state");
 * // … pulumi login / up …
 * await pg.stop();
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const binDir = postgresBinDir();
  if (binDir === undefined)
    throw new Error(
      "PostgreSQL's server binaries (initdb, pg_ctl) were not found in /usr/lib/postgresql/*/bin, on PATH or in IRV_POSTGRES_BIN: install them (`apt-get install -y postgresql`; .ci/run does)",
    );
  const user = serverUser();
  const dir = mkdtempSync(path.join(tmpdir(), "irv-pg-"));
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const dataDir = path.join(dir, "data");
  const asUser = (exe: string, args: string[]) => {
    const file = path.join(binDir, exe);
    const [cmd, argv] =
      user === undefined ? [file, args] : ["runuser", ["-u", user.name, "--", file, ...args]];
    const r = spawnSync(cmd, argv, { encoding: "utf8", cwd: dir, timeout: 120_000 });
    if (r.status !== 0)
      throw new Error(`${exe} ${args.join(" ")} failed (exit ${r.status}): ${r.stderr || r.stdout}`);
  };
  let port = 0;
  const stop = async () => {
    if (existsSync(path.join(dataDir, "postmaster.pid")))
      try {
        asUser("pg_ctl", ["stop", "-D", dataDir, "-m", "immediate", "-w"]);
      } catch {
        // Already gone: nothing to stop.
      }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    asUser("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    const settings = [
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      ...(options.durable === true ? [] : ["-c fsync=off", "-c synchronous_commit=off"]),
    ];
    // Another process may take the free port before the server binds it: try a few.
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      try {
        asUser("pg_ctl", [
          "start",
          "-D",
          dataDir,
          "-w",
          "-l",
          path.join(dir, "server.log"),
          "-o",
          [`-p ${port}`, ...settings].join(" "),
        ]);
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const sql = (database: string, statement: string) =>
    execFileSync(
      path.join(binDir, "psql"),
      ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-XAtq", "-c", statement],
      { encoding: "utf8", env: { ...process.env, PGCONNECT_TIMEOUT: "10" } },
    );
  return {
    port,
    binDir,
    sql,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name))
        throw new Error(`database name ${name}: lowercase letters, digits, _`);
      sql("postgres", `CREATE DATABASE ${name}`);
      return `postgres://postgres:${POSTGRES_TEST_PASSWORD}@127.0.0.1:${port}/${name}?sslmode=disable`;
    },
    stop,
  };
}
