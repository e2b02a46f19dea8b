/**
 * The emulator's time source in milliseconds since the epoch. Injectable so that tests can move time
 * (page token expiry, token lifetimes) without waiting.
 *
 * @example
 * let now = Date.parse("2026-01-01T00:00:00Z");
 * const clock: Clock = () => now;
 */
export type Clock = () => number;

/**
 * RFC 3339 UTC with milliseconds and `Z`, the only timestamp form the API writes.
 *
 * @example
 * formatTimestamp(0); // "1970-01-01T00:00:00.000Z"
 */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The next `updateTime` of a resource: now, but strictly after the previous one, so that two updates
 * within one millisecond still give increasing timestamps (clients compare them to detect change).
 *
 * @example
 * nextUpdateTime("2026-01-01T00:00:00.000Z", Date.parse("2026-01-01T00:00:00.000Z")); // "…00.001Z"
 */
export function nextUpdateTime(previous: string | undefined, now: number): string {
  const prev = previous === undefined ? Number.NEGATIVE_INFINITY : Date.parse(previous);
  return formatTimestamp(Math.max(now, prev + 1));
}
