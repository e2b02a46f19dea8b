import { z } from "zod";

const LockContent = z.looseObject({ timestamp: z.string() });

/**
 * Whether a lock of a self-managed ("DIY") backend belongs to a stack, from its key under
 * `.pulumi/locks/`: `<org>/<project>/<stack>/<id>.json`, or `<stack>/<id>.json` in the layout
 * before projects. Every DIY backend (a directory, a bucket, a PostgreSQL table) keeps its locks
 * under these keys. Without `project`, a stack of that name in any project matches.
 *
 * @example
 * isStackLock("organization/infra/dev/7f3a.json", "dev", "infra"); // true
 */
export function isStackLock(keyUnderLocks: string, stackName: string, projectName?: string): boolean {
  const parts = keyUnderLocks.split("/");
  if (!(parts.at(-1) ?? "").endsWith(".json") || parts.at(-2) !== stackName) return false;
  if (parts.length === 4) return projectName === undefined || parts[1] === projectName;
  return parts.length === 2;
}

/**
 * When the run holding a lock began: the lock's `timestamp` (the CLI writes it with nanoseconds
 * when it takes the lock), or undefined for content that is not a lock.
 *
 * @example
 * lockTime('{"pid":1,"timestamp":"2026-11-25T16:30:00.123456789Z"}'); // 1795624200123
 */
export function lockTime(content: string): number | undefined {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return undefined;
  }
  const parsed = LockContent.safeParse(json);
  const t = parsed.success ? Date.parse(parsed.data.timestamp) : Number.NaN;
  return Number.isNaN(t) ? undefined : t;
}

/**
 * The earliest of the lock times, or undefined for none.
 *
 * @example
 * earliest([undefined, 5, 3]); // 3
 */
export function earliest(times: readonly (number | undefined)[]): number | undefined {
  const known = times.filter((t): t is number => t !== undefined);
  return known.length === 0 ? undefined : Math.min(...known);
}
