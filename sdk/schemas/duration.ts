import { z } from "zod";

// Go's time.ParseDuration grammar limited to hours, minutes and seconds, each with an optional
// fraction ("1h30m", "1.5h", "90s"). protojson's Duration ("604800s", "0.5s") is a case of it.
const SEGMENT = /(\d+(?:\.\d+)?)([hms])/y;
const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1000 } as const;

/**
 * A duration in milliseconds, from Go's notation with hours, minutes and seconds (`"168h"`,
 * `"1h30m"`, `"1.5h"`) or protojson's Duration (`"604800s"`, `"0.5s"`); `undefined` when the text
 * is neither (empty, negative, days, other units) or the duration is zero.
 *
 * @example
 * durationMs("168h");    // 604800000
 * durationMs("604800s"); // 604800000
 * durationMs("7d");      // undefined: days are no unit (write "168h")
 */
export function durationMs(text: string): number | undefined {
  if (text === "") return undefined;
  let ms = 0;
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < text.length) {
    const at = SEGMENT.lastIndex;
    const m = SEGMENT.exec(text);
    if (m === null || m.index !== at) return undefined;
    ms += Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  }
  ms = Math.round(ms);
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/**
 * A duration as protojson writes a `google.protobuf.Duration`: seconds with `s`, with a fraction
 * only when needed.
 *
 * @example
 * formatDuration(604_800_000); // "604800s"
 * formatDuration(1_500);       // "1.500s"
 */
export function formatDuration(ms: number): string {
  const whole = Math.trunc(ms / 1000);
  const frac = Math.abs(ms % 1000);
  return frac === 0 ? `${whole}s` : `${whole}.${String(frac).padStart(3, "0")}s`;
}

/**
 * The message every refused duration carries.
 *
 * @example
 * `ttl ${DURATION_RULE}`;
 */
export const DURATION_RULE =
  'must be a positive duration in hours, minutes and seconds, such as "168h", "1h30m" or "604800s"';

/**
 * A positive duration as a caller writes it (`"168h"` or `"604800s"`), validated; the wire form is
 * {@link formatDuration} of {@link durationMs}.
 *
 * @example
 * Duration.parse("168h"); // "168h"
 * Duration.parse("7d");   // throws: must be a positive duration…
 */
export const Duration = z.string().refine((t) => durationMs(t) !== undefined, { message: DURATION_RULE });

/**
 * protojson's own Duration form, all a gateway accepts: seconds, an optional fraction of up to 9
 * digits, then `s` (`"604800s"`, `"1.5s"`; never `"168h"`).
 *
 * @example
 * WIRE_DURATION_PATTERN.test("604800s"); // true
 * WIRE_DURATION_PATTERN.test("168h");    // false
 */
export const WIRE_DURATION_PATTERN = /^-?\d+(?:\.\d{1,9})?s$/;
