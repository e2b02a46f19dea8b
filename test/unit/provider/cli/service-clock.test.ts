// recover measures the service's clock from the Date header of its answers (issue 25 item 2)
// instead of allowing a fixed 60 s of skew, which let a same-named resource made seconds before
// the interrupted run pass as the run's.
import { describe, expect, it } from "vitest";
import { clockOffset, describeOffset, measureServiceClock } from "../../../../provider/cli/service-clock.js";

/** A service whose clock is `aheadMs` ahead of ours, answering after `rttMs`, on a fake clock of ours. */
function fakeService(aheadMs: number, start: number, rttMs = 40) {
  const clock = { t: start };
  return {
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms;
    },
    probe: async () => {
      clock.t += rttMs / 2;
      const date = new Date(clock.t + aheadMs).toUTCString(); // whole seconds, as HTTP sends it
      clock.t += rttMs / 2;
      return date;
    },
  };
}

describe("the service's clock offset", () => {
  it.each([
    [30_000, 1_795_000_000_123],
    [-30_000, 1_795_000_000_871],
    [2_700, 1_795_000_000_500],
    [0, 1_795_000_000_999],
  ])("is bracketed within the probes' spacing plus two round trips (%i ms ahead)", async (aheadMs, start) => {
    const offset = await measureServiceClock({ baseUrl: "https://irv.test", ...fakeService(aheadMs, start) });
    expect(offset).toBeDefined();
    if (offset === undefined) return;
    expect(offset.lowMs).toBeLessThanOrEqual(aheadMs);
    expect(offset.highMs).toBeGreaterThanOrEqual(aheadMs);
    expect(offset.highMs - offset.lowMs).toBeLessThanOrEqual(220 + 2 * 40);
  });

  it("bounds the offset by each sample: the answer's second and our send and receive times", () => {
    expect(clockOffset([{ sentAt: 0, receivedAt: 50, serverDate: 30_000 }])).toEqual({
      lowMs: 29_950,
      highMs: 31_000,
    });
  });

  it("is unknown when an answer has no Date header", async () => {
    const service = { ...fakeService(0, 0), probe: async () => undefined };
    expect(await measureServiceClock({ baseUrl: "https://irv.test", ...service })).toBeUndefined();
  });

  it("reads as a sentence for recover's report", () => {
    expect(describeOffset({ lowMs: -30_100, highMs: -29_900 })).toBe(
      "the service's clock is 30.00 s behind ours (± 0.10 s)",
    );
  });
});
