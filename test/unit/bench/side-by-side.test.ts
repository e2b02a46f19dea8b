// Side-by-side timing, the one way every benchmark compares: who goes first alternates, samples land
// per step and side in round order, and ratios are of medians.
import { describe, expect, it } from "vitest";
import { alternate, compareSides, timed, timeSteps } from "../../../bench/support/index.ts";

describe("timeSteps", () => {
  it("runs every step on every side each round, each side first as often as the other", async () => {
    const order: string[] = [];
    const steps = [{ key: "up" }, { key: "refresh" }];
    const samples = await timeSteps({
      rounds: 2,
      steps,
      sides: ["irv", "noop"] as const,
      run: async (step, side, round) => {
        order.push(`${round} ${step.key} ${side}`);
        return { durationMs: side === "irv" ? 10 * round : 5 };
      },
    });
    expect(order).toEqual([
      "1 up noop",
      "1 up irv",
      "1 refresh irv",
      "1 refresh noop",
      "2 up irv",
      "2 up noop",
      "2 refresh noop",
      "2 refresh irv",
    ]);
    expect(samples.up?.irv.map((s) => s.durationMs)).toEqual([10, 20]);
    expect(samples.refresh?.noop.map((s) => s.durationMs)).toEqual([5, 5]);
  });

  it("alternates three sides by reversing them", () => {
    expect(alternate(["irv", "noop-full", "noop"], 2)).toEqual(["irv", "noop-full", "noop"]);
    expect(alternate(["irv", "noop-full", "noop"], 3)).toEqual(["noop", "noop-full", "irv"]);
  });
});

describe("compareSides", () => {
  it("compares the medians per step and sums them over the sequence", () => {
    const d = (...ms: number[]) => ms.map((durationMs) => ({ durationMs }));
    const samples = {
      up: { irv: d(30, 10, 20), noop: d(10, 10, 40) },
      refresh: { irv: d(9), noop: d(3) },
    };
    const { steps, total } = compareSides(samples, [{ key: "up" }, { key: "refresh" }], "irv", "noop");
    expect(steps).toEqual([
      { key: "up", a: 20, b: 10, ratio: 2 },
      { key: "refresh", a: 9, b: 3, ratio: 3 },
    ]);
    expect(total).toEqual({ key: "total", a: 29, b: 13, ratio: 29 / 13 });
  });
});

describe("timed", () => {
  it("returns what the work returned, synchronous or not", async () => {
    expect((await timed(() => 42)).value).toBe(42);
    const { value, durationMs } = await timed(async () => "done");
    expect(value).toBe("done");
    expect(durationMs).toBeGreaterThanOrEqual(0);
  });
});
