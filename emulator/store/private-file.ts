import { chmodSync, closeSync, constants, existsSync, openSync, statSync } from "node:fs";

/**
 * Makes a database file private to its owner (mode 0600) before SQLite opens it: a new file is
 * created so (SQLite gives its `-wal` and `-shm` files the database file's mode), and an existing
 * one, or its leftover `-wal`/`-shm`, that others may read is tightened. The file holds the admin
 * token, the signing keys and the page-token secret.
 *
 * @example
 * makePrivateFile("state.db");
 * new DatabaseSync("state.db");
 */
export function makePrivateFile(path: string): void {
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) === 0) continue;
    try {
      chmodSync(file, mode & 0o700);
    } catch {
      // Not ours to change (another owner): SQLite still opens it if it may.
    }
  }
}
