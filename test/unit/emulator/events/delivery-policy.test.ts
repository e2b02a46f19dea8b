// The retry schedule of webhook deliveries (issue 46): the backoff, and the pause a sink asks for
// with `Retry-After` on a 429 or a 503 (delay-seconds or an HTTP date), never past the policy's cap.
import { describe, expect, test } from "vitest";
import type { DeliveryPolicy } from "../../../../emulator/events/index.js";
import {
  backoffMs,
  DEFAULT_DELIVERY_POLICY,
  isRetryableStatus,
  requestedPauseMs,
  retryDelayMs,
} from "../../../../emulator/events/index.js";

const now = Date.parse("2026-11-28T18:00:00Z");
const policy: DeliveryPolicy = { ...DEFAULT_DELIVERY_POLICY, backoffMs: 100, maxBackoffMs: 10_000 };

describe("Retry-After", () => {
  test("of a 429 or a 503 asks for its delay-seconds, or for the time until its HTTP date", () => {
    expect(requestedPauseMs(503, "2", now)).toBe(2000);
    expect(requestedPauseMs(429, " 0 ", now)).toBe(0);
    expect(requestedPauseMs(429, "Sat, 28 Nov 2026 18:00:05 GMT", now)).toBe(5000);
    // A date already past asks for no pause.
    expect(requestedPauseMs(503, "Sat, 28 Nov 2026 17:59:00 GMT", now)).toBe(0);
  });

  test("is not read on another status, nor when it is neither form (the backoff alone applies)", () => {
    expect(requestedPauseMs(500, "2", now)).toBeUndefined();
    expect(requestedPauseMs(502, "Sat, 28 Nov 2026 18:00:05 GMT", now)).toBeUndefined();
    expect(requestedPauseMs(503, null, now)).toBeUndefined();
    for (const odd of ["", "-1", "1.5", "soon", "2026-11-28T18:00:05Z", "5 seconds"])
      expect(requestedPauseMs(503, odd, now), odd).toBeUndefined();
  });
});

describe("the pause before the next attempt", () => {
  test("is the backoff, doubling from its base to the cap, when the sink asked for none", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n, undefined))).toEqual([100, 200, 400, 800]);
    expect(retryDelayMs(policy, 20, undefined)).toBe(10_000);
    expect(retryDelayMs(policy, 3, undefined)).toBe(backoffMs(policy, 3));
  });

  test("is what the sink asked for when that is longer, the backoff when that is longer", () => {
    expect(retryDelayMs(policy, 1, 2000)).toBe(2000);
    expect(retryDelayMs(policy, 4, 0)).toBe(800);
  });

  test("never passes the cap, whatever the sink asked for: an hour's Retry-After waits maxBackoffMs", () => {
    expect(retryDelayMs(policy, 1, requestedPauseMs(503, "3600", now))).toBe(10_000);
    expect(retryDelayMs({ ...policy, maxBackoffMs: 250 }, 1, 5000)).toBe(250);
  });
});

test("a 5xx and a 429 are retried, another 4xx or a redirect is not", () => {
  expect([500, 503, 429].map(isRetryableStatus)).toEqual([true, true, true]);
  expect([400, 403, 404, 307].map(isRetryableStatus)).toEqual([false, false, false, false]);
});
