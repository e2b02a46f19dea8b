import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { earliest, isStackLock, lockTime } from "./stack-lock.js";

/**
 * The directory of a self-managed file backend (`file://…` as `pulumi whoami --verbose` shows its
 * URL), or undefined for any other backend.
 *
 * @example
 * fileBackendDir("file:///home/me/state"); // "/home/me/state"
 */
export function fileBackendDir(url: string | undefined): string | undefined {
  if (url === undefined || !url.startsWith("file://")) return undefined;
  const dir = url === "file://~" ? process.env.HOME : fileURLToPath(url.split("?")[0] ?? url);
  return dir === undefined ? undefined : dir;
}

/**
 * Deletes the broken `.attrs` files of a file backend: empty ones, and ones that do not parse as
 * JSON. The backend (gocloud's fileblob) writes each file's attributes to a `<file>.attrs` sidecar
 * by truncating and rewriting it, so a kill at that moment leaves it empty, and a torn write or a
 * full disk leaves part of its JSON; either way every later command fails ("failed to load
 * checkpoint: EOF", "unexpected end of JSON input"). A missing sidecar is fine, so deleting is the
 * repair. Returns the files deleted, relative to the backend directory.
 *
 * @example
 * repairBrokenAttrs("/home/me/state"); // [".pulumi/stacks/app/dev.json.attrs"]
 */
export function repairBrokenAttrs(backendDir: string): string[] {
  const removed: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith(".attrs") && (statSync(p).size === 0 || safeJson(p) === undefined)) {
        rmSync(p);
        removed.push(path.relative(backendDir, p));
      }
    }
  };
  const root = path.join(backendDir, ".pulumi");
  if (existsSync(root)) walk(root);
  return removed.sort();
}

/**
 * When the run holding a file backend's lock on `stackName` (of `projectName`, when given) began
 * (the lock's `timestamp`), or undefined when no lock is held. The lock sits at
 * `.pulumi/locks/[<org>/<project>/]<stack>/<id>.json`.
 *
 * @example
 * lockTakenAt("/home/me/state", "dev", "infra"); // 1795000000000
 */
export function lockTakenAt(backendDir: string, stackName: string, projectName?: string): number | undefined {
  const times: (number | undefined)[] = [];
  const root = path.join(backendDir, ".pulumi", "locks");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (isStackLock(path.relative(root, p).split(path.sep).join("/"), stackName, projectName))
        times.push(lockTime(readFileSync(p, "utf8")));
    }
  };
  if (existsSync(root)) walk(root);
  return earliest(times);
}

function safeJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}
