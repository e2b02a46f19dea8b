// The cached Date header (issue 40) must read exactly as `toUTCString` of the clock it is given,
// whatever that clock does: within a second, across one, and moved backwards.
import { expect, test } from "vitest";
import { cachedHttpDate } from "../../../../emulator/http/http-date.js";

test("the cached Date header is toUTCString of every clock reading, also one moved backwards", () => {
  const httpDate = cachedHttpDate();
  const base = Date.parse("2026-11-28T01:00:00.000Z");
  const readings = [
    base,
    base + 999,
    base + 1000,
    base + 1000.5,
    base - 1,
    base - 3_600_000,
    base + 86_400_123,
    -0.5,
    -1,
    -1000,
  ];
  for (const ms of readings) expect(httpDate(ms)).toBe(new Date(ms).toUTCString());
  expect(httpDate(Number.NaN)).toBe("Invalid Date");
});
