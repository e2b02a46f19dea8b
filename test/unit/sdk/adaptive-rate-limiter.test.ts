// The client-side limiter's arithmetic on a fake clock: unlimited until refused, the explicit cap,
// the cut to 90 % of the accepted rate with the service's pause, one cut per overload, the climb
// back and the probe above, the time budget of a refused request, and the in-flight gate. The
// integration tests (test/integration/sdk/rate-limit.test.ts) show the same against the emulator.
import { describe, expect, it } from "vitest";
import type { RateLimiterOptions } from "../../../sdk/index.js";
import { AdaptiveRateLimiter, ApiError, IrvClient } from "../../../sdk/index.js";
import { GROUP, mockApi, noSleep, status } from "./mock-api.js";

function fakeClock(options: RateLimiterOptions = {}) {
  const clock = { t: 0 };
  const limiter = new AdaptiveRateLimiter({
    now: () => clock.t,
    sleep: async (ms) => {
      clock.t += ms;
    },
    ...options,
  });
  return { clock, limiter };
}

const refusal = (retryAfterMs?: number) =>
  ApiError.fromResponse({
    method: "GET",
    path: "/x",
    httpStatus: 429,
    body: JSON.stringify(status(8, "slow down")),
    retryAfterMs,
  });

/** `n` requests answered successfully, one every `everyMs`, starting now. */
async function accepted(c: ReturnType<typeof fakeClock>, n: number, everyMs: number) {
  for (let i = 0; i < n; i++) {
    const turn = c.limiter.turn();
    await turn.ready();
    turn.answered();
    c.clock.t += everyMs;
  }
}

/** A limiter that was accepting 40 requests a second when the service first refused. */
async function refusedAt40PerSecond() {
  const c = fakeClock();
  await accepted(c, 40, 25);
  const turn = c.limiter.turn();
  await turn.ready();
  turn.answered(refusal());
  return c;
}

/**
 * Requests let through without the clock moving (at most 500), each answered at once: successfully,
 * except the one at index `refused`, refused with a 429.
 */
async function sentAtOnce(c: ReturnType<typeof fakeClock>, refused = -1) {
  const start = c.clock.t;
  for (let n = 0; n < 500; n++) {
    const turn = c.limiter.turn();
    await turn.ready();
    const moved = c.clock.t !== start;
    turn.answered(n === refused ? refusal() : undefined);
    if (moved) return n;
  }
  return 500;
}

describe("AdaptiveRateLimiter", () => {
  it("lets everything through at once until the service refuses", async () => {
    const c = fakeClock();
    for (let i = 0; i < 50; i++) {
      const turn = c.limiter.turn();
      await turn.ready();
      turn.answered();
    }
    expect(c.clock.t).toBe(0);
    expect(c.limiter.state()).toEqual({ rate: Number.POSITIVE_INFINITY, throttled: 0, cuts: 0 });
  });

  it("spaces requests 1/cap apart under an explicit cap (maxRequestsPerSecond)", async () => {
    const c = fakeClock({ maxRequestsPerSecond: 20 });
    await accepted(c, 11, 0);
    expect(c.clock.t).toBe(500);
    expect(c.limiter.state().rate).toBe(20);
  });

  it("after a 429 waits the service's delay, then paces at 90 % of what the service accepted in the last second", async () => {
    const c = fakeClock();
    await accepted(c, 40, 25); // 40 per second
    const turn = c.limiter.turn();
    await turn.ready();
    expect(turn.answered(refusal(100))).toBe(true);
    expect(c.limiter.state()).toMatchObject({ rate: 36, throttled: 1, cuts: 1 });
    const refusedAt = c.clock.t;
    await turn.ready();
    expect(c.clock.t).toBe(refusedAt + 100);
    turn.answered();
    const next = c.limiter.turn();
    await next.ready();
    expect(c.clock.t).toBeCloseTo(refusedAt + 100 + 1000 / 36, 0);
  });

  it("cuts once per overload: refusals of requests sent before the cut do not cut again", async () => {
    const c = fakeClock();
    await accepted(c, 40, 25);
    const inFlight = [c.limiter.turn(), c.limiter.turn(), c.limiter.turn()];
    for (const t of inFlight) await t.ready();
    for (const t of inFlight) t.answered(refusal());
    expect(c.limiter.state()).toMatchObject({ throttled: 3, cuts: 1 });
  });

  it("climbs back to the accepted rate over two seconds, then probes 25 % a second above it", async () => {
    const c = fakeClock();
    await accepted(c, 40, 25);
    const turn = c.limiter.turn();
    await turn.ready();
    turn.answered(refusal());
    const cut = c.clock.t;
    const rateAt = (ms: number) => {
      c.clock.t = cut + ms;
      return c.limiter.state().rate;
    };
    expect(rateAt(1000)).toBeCloseTo(38);
    expect(rateAt(2000)).toBeCloseTo(40);
    expect(rateAt(3000)).toBeCloseTo(50);
    expect(rateAt(4000)).toBeCloseTo(62.5);
  });

  it("never goes above the explicit cap while probing", async () => {
    const c = fakeClock({ maxRequestsPerSecond: 30 });
    await accepted(c, 30, 0);
    const turn = c.limiter.turn();
    await turn.ready();
    turn.answered(refusal());
    c.clock.t += 10_000;
    expect(c.limiter.state().rate).toBe(30);
  });

  it("after a lull spends the slots left unused at once (requests ready together do not queue behind empty slots)", async () => {
    const c = await refusedAt40PerSecond();
    c.clock.t += 500; // nobody asked for half a second: about 18 slots at 36-38 a second
    const before = c.clock.t;
    await accepted(c, 10, 0);
    expect(c.clock.t).toBe(before);
  });

  it("earns no more than one second of the learned rate however long the lull", async () => {
    const c = await refusedAt40PerSecond();
    c.clock.t += 2000; // back at the learned rate, with two seconds unused
    const rate = c.limiter.state().rate;
    const n = await sentAtOnce(c);
    expect(n).toBeGreaterThanOrEqual(Math.floor(rate) - 1);
    expect(n).toBeLessThanOrEqual(Math.ceil(rate) + 1);
  });

  it("halves that credit when a request sent on it is refused (the service's burst is smaller)", async () => {
    const c = await refusedAt40PerSecond();
    c.clock.t += 2000;
    const full = c.limiter.state().rate;
    expect(full).toBeGreaterThan(30);
    // The refusal cut the rate: one more slot now, then the 13th waits.
    expect(await sentAtOnce(c, 10)).toBe(12);
    c.clock.t += 2000;
    const rate = c.limiter.state().rate;
    const n = await sentAtOnce(c);
    expect(n).toBeGreaterThanOrEqual(Math.floor(rate / 2) - 1);
    expect(n).toBeLessThanOrEqual(Math.ceil(rate / 2) + 1);
  });

  it("earns no credit under an explicit cap: after a lull the cap's spacing still holds", async () => {
    const c = fakeClock({ maxRequestsPerSecond: 20 });
    await accepted(c, 20, 0);
    const turn = c.limiter.turn();
    await turn.ready();
    turn.answered(refusal());
    c.clock.t += 10_000;
    expect(await sentAtOnce(c)).toBeLessThanOrEqual(1);
  });

  it("resends a refused request until maxThrottledMs after its first refusal, counting from there", async () => {
    const c = fakeClock({ maxThrottledMs: 5000 });
    const turn = c.limiter.turn();
    await turn.ready();
    expect(turn.answered(refusal(1000))).toBe(true);
    c.clock.t += 3000;
    await turn.ready();
    expect(turn.answered(refusal(1000))).toBe(true); // 3 s + 1 s ≤ 5 s
    c.clock.t += 1500;
    await turn.ready();
    expect(turn.answered(refusal(1000))).toBe(false); // would pass 5 s
  });

  // Regression (issue 25 item 3): one 429 with `Retry-After: 999999` paused every later request of
  // the process for 11.5 days; the pause is capped like a retry's wait (maxPauseMs, 10 s default).
  it("pauses every request no longer than maxPauseMs after a 429 asking for days (Retry-After: 999999)", async () => {
    const c = fakeClock();
    const refused = c.limiter.turn();
    await refused.ready();
    expect(refused.answered(refusal(999_999_000))).toBe(true);
    const start = c.clock.t;
    const later = c.limiter.turn();
    await later.ready();
    expect(c.clock.t - start).toBe(10_000);
    const capped = fakeClock({ maxPauseMs: 1500 });
    const first = capped.limiter.turn();
    await first.ready();
    first.answered(refusal(999_999_000));
    await capped.limiter.turn().ready();
    expect(capped.clock.t).toBe(1500);
  });

  it("counts the capped pause, not the asked one, against maxThrottledMs (the refused request is sent again)", async () => {
    const c = fakeClock({ maxThrottledMs: 60_000 });
    const turn = c.limiter.turn();
    await turn.ready();
    expect(turn.answered(refusal(999_999_000))).toBe(true);
  });

  it("holds requests beyond maxInFlight until one in flight is answered", async () => {
    const limiter = new AdaptiveRateLimiter({ maxInFlight: 2 });
    const turns = [limiter.turn(), limiter.turn(), limiter.turn()];
    const ready = turns.map(() => false);
    for (const [i, t] of turns.entries()) {
      void t.ready().then(() => {
        ready[i] = true;
      });
    }
    await new Promise((r) => setImmediate(r));
    expect(ready).toEqual([true, true, false]);
    turns[0]?.answered(new Error("ECONNRESET"));
    await new Promise((r) => setImmediate(r));
    expect(ready).toEqual([true, true, true]);
  });

  it("refuses a cap that is not above 0, naming the option", () => {
    expect(() => new AdaptiveRateLimiter({ maxRequestsPerSecond: 0 })).toThrow(/maxRequestsPerSecond/);
  });
});

describe("the transport and the limiter", () => {
  it("resends a POST refused with 429 ten times without using up its attempts (a 429 storm is not a failure)", async () => {
    const { agent, origin, pool } = mockApi();
    const path = `/iam/v2/groups/${GROUP.uid.split("/")[0]}`;
    pool.intercept({ path, method: "POST" }).reply(429, status(8, "slow down")).times(10);
    pool.intercept({ path, method: "POST" }).reply(200, GROUP);
    const statuses: number[] = [];
    const limiter = new AdaptiveRateLimiter({ sleep: noSleep });
    const client = new IrvClient({
      baseUrl: origin,
      token: "t",
      dispatcher: agent,
      sleep: noSleep,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, multiplier: 1 },
      rateLimiter: limiter,
      onEvent: (e) => statuses.push(e.status ?? 0),
    });
    expect((await client.groups.create(GROUP.uid.split("/")[0] as string, { name: "team-a" })).uid).toBe(
      GROUP.uid,
    );
    expect(statuses).toEqual([...Array(10).fill(429), 200]);
    expect(limiter.state().throttled).toBe(10);
  });
});
