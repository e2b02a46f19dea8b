import { describe, expect, test } from "vitest";
import { formatRateLimit, parseRateLimit } from "../../../emulator/core/index.js";

describe("parseRateLimit", () => {
  test("a rate alone allows bursts of one second's worth of requests, at least one", () => {
    expect(parseRateLimit("50")).toEqual({ rate: 50, burst: 50 });
    expect(parseRateLimit("2.5")).toEqual({ rate: 2.5, burst: 3 });
    expect(parseRateLimit("0.2")).toEqual({ rate: 0.2, burst: 1 });
  });

  test("burst=N sets the bucket size; spaces around parts are fine", () => {
    expect(parseRateLimit(" 50 , burst=200 ")).toEqual({ rate: 50, burst: 200 });
  });

  test("none and an empty spec mean no limit", () => {
    expect(parseRateLimit("none")).toBeUndefined();
    expect(parseRateLimit("")).toBeUndefined();
  });

  test.each([
    ["0", /rate must be a positive number/],
    ["-5", /rate must be a positive number/],
    ["fast", /rate must be a positive number/],
    ["50,burst=0", /burst must be a whole number/],
    ["50,burst=1.5", /burst must be a whole number/],
    ["50,size=3", /unknown rate-limit option "size=3"/],
  ])("refuses %j naming the part and the rule", (spec, message) => {
    expect(() => parseRateLimit(spec)).toThrow(message);
  });

  test("formats back to the --rate-limit syntax", () => {
    expect(formatRateLimit(parseRateLimit("50"))).toBe("50,burst=50");
    expect(formatRateLimit(undefined)).toBe("none");
  });
});
