import { describe, expect, test } from "vitest";
import { formatFaultSpec, hasFaults, NO_FAULTS, parseFaultSpec } from "../../../emulator/core/index.js";

describe("parseFaultSpec", () => {
  test("reads the guide's example spec", () => {
    expect(parseFaultSpec("503=0.1,429=0.05,reset=0.02,latency=20")).toEqual({
      ...NO_FAULTS,
      unavailable: 0.1,
      exhausted: 0.05,
      reset: 0.02,
      latencyMs: 20,
    });
  });

  test("reads the extensions reset-before, reset-after and retry-after, with spaces around entries", () => {
    expect(parseFaultSpec(" reset-before=1 , reset-after=0.5,retry-after=3 ")).toMatchObject({
      resetBefore: 1,
      resetAfter: 0.5,
      retryAfterSeconds: 3,
    });
  });

  test("an empty spec and none mean no faults", () => {
    expect(parseFaultSpec("")).toEqual(NO_FAULTS);
    expect(parseFaultSpec("none")).toEqual(NO_FAULTS);
    expect(hasFaults(NO_FAULTS)).toBe(false);
    expect(hasFaults(parseFaultSpec("latency=1"))).toBe(true);
  });

  test.each(["503=1.5", "429=-0.1", "reset=x", "latency=-5", "bogus=1", "503", "503="])(
    "refuses %j naming it",
    (spec) => {
      expect(() => parseFaultSpec(spec)).toThrow(/fault/);
    },
  );

  test("formats back to the same syntax", () => {
    expect(formatFaultSpec(parseFaultSpec("503=1,latency=20"))).toBe("503=1,latency=20");
    expect(formatFaultSpec(NO_FAULTS)).toBe("none");
  });
});
