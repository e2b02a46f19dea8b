import { ApiError } from "../errors/api-error.js";
import { Code } from "../errors/codes.js";
import { deepEqual } from "../update-mask/compute-update.js";

/**
 * How far the server's clock may be behind ours when a lost create's `createTime` is compared with
 * the moment before our first attempt.
 *
 * @example
 * await client.groups.create(org, { name: "a" }, { findExisting, clockSkewMs: LOST_CREATE_CLOCK_SKEW_MS });
 */
export const LOST_CREATE_CLOCK_SKEW_MS = 60_000;

/**
 * What a create sent, to recognise what it made.
 *
 * @example
 * const sent: SentCreate = { parentUid: org, body: { name: "team-a" }, startedAt: Date.now(), clockSkewMs: 60_000 };
 */
export interface SentCreate {
  /** The parent in the path; undefined for flat kinds. */
  parentUid: string | undefined;
  body: unknown;
  /** Our clock just before the first attempt (ms since the epoch). */
  startedAt: number;
  clockSkewMs: number;
}

/**
 * Why `found` is not the resource this create made, or undefined when it is: it must sit under the
 * parent the create named (or be named by the parent's uid, as a group's account association is), carry every field the create sent (a `<x>Uid` field sent matches the
 * hydrated `<x>.uid`; absent and `""` are alike), and have been created after the first attempt
 * began, give or take the clock skew.
 *
 * @example
 * lostCreateMismatch({ uid: `${org}/0123456789abcdef`, name: "a", createTime: "2020-01-01T00:00:00Z" }, sent);
 * // "it was created at 2020-01-01T00:00:00Z, before this create began"
 */
export function lostCreateMismatch(found: { uid: string }, sent: SentCreate): string | undefined {
  // Under the parent, or the parent's own uid (a group's one account association has it).
  if (
    sent.parentUid !== undefined &&
    found.uid !== sent.parentUid &&
    !found.uid.startsWith(`${sent.parentUid}/`)
  )
    return `it is not under ${sent.parentUid}`;
  const fields = found as Record<string, unknown>;
  if (typeof sent.body === "object" && sent.body !== null)
    for (const [key, value] of Object.entries(sent.body)) {
      if (value === undefined) continue;
      const hydrated = key.endsWith("Uid") ? fields[key.slice(0, -3)] : undefined;
      const have =
        key in fields || typeof hydrated !== "object" || hydrated === null
          ? fields[key]
          : (hydrated as { uid?: unknown }).uid;
      if (!contains(have, value)) return `its ${key} differs from the one sent`;
    }
  const created = typeof fields.createTime === "string" ? Date.parse(fields.createTime) : Number.NaN;
  if (Number.isNaN(created)) return "it has no createTime";
  if (created < sent.startedAt - sent.clockSkewMs)
    return `it was created at ${fields.createTime}, before this create began`;
  return undefined;
}

/**
 * The error for a lookup that found a resource this create did not make: ALREADY_EXISTS naming it.
 *
 * @example
 * throw alreadyExists("POST", path, found.uid, "its description differs from the one sent");
 */
export function alreadyExists(method: string, path: string, uid: string, why: string): ApiError {
  return new ApiError({
    method,
    path,
    httpStatus: 409,
    status: {
      code: Code.ALREADY_EXISTS,
      message: `a resource with this name already exists (uid ${uid}) and was not made by this create: ${why}. Import it, or pick another name`,
      details: [],
    },
  });
}

// Every leaf sent is present with the same value; absent and "" are alike.
function contains(have: unknown, sent: unknown): boolean {
  if (sent === "" && (have === undefined || have === "")) return true;
  if (typeof sent !== "object" || sent === null || Array.isArray(sent)) return deepEqual(have, sent);
  if (typeof have !== "object" || have === null) return false;
  return Object.entries(sent).every(
    ([k, v]) => v === undefined || contains((have as Record<string, unknown>)[k], v),
  );
}
