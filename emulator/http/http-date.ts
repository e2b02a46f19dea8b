/**
 * A `Date` header formatter that formats each second once. Every answer carries the emulator's
 * clock in its `Date` header; `toUTCString` costs about half a microsecond, and the header only
 * changes when the second does (Node's own `Date` header is cached the same way). The same text as
 * `toUTCString` for any clock, also one moved backwards: the cache is keyed by the second shown.
 *
 * @example
 * const httpDate = cachedHttpDate();
 * reply.header("date", httpDate(clock())); // "Sat, 28 Nov 2026 01:00:00 GMT"
 */
export function cachedHttpDate(): (ms: number) => string {
  let second = Number.NaN;
  let text = "";
  return (ms) => {
    // The second `new Date(ms)` shows: Date truncates a fractional time towards zero first.
    const s = Math.floor(Math.trunc(ms) / 1000);
    if (s !== second) {
      text = new Date(ms).toUTCString();
      second = s;
    }
    return text;
  };
}
