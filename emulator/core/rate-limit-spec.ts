/**
 * A per-caller request rate limit: a token bucket refilled at `rate` tokens per second holding at
 * most `burst` tokens; each API request takes one.
 *
 * @example
 * const spec: RateLimitSpec = { rate: 50, burst: 50 };
 * emu.setRateLimit(spec);
 */
export interface RateLimitSpec {
  /** Sustained requests per second per caller (> 0, fractions allowed). */
  rate: number;
  /** Requests a caller may send at once after being idle (a whole number ≥ 1). */
  burst: number;
}

/**
 * Parses `RATE[,burst=N]` as `--rate-limit` takes it: `50` (burst defaults to one second's worth,
 * at least 1), `50,burst=200`, `0.5,burst=1`. `none` or an empty spec means no limit (undefined).
 * Throws a message naming the bad part.
 *
 * @example
 * parseRateLimit("50"); // { rate: 50, burst: 50 }
 * parseRateLimit("2.5,burst=10"); // { rate: 2.5, burst: 10 }
 * parseRateLimit("none"); // undefined
 */
export function parseRateLimit(spec: string): RateLimitSpec | undefined {
  const text = spec.trim();
  if (text === "" || text === "none") return undefined;
  const [rateText = "", ...options] = text.split(",").map((s) => s.trim());
  const rate = /^\d+(\.\d+)?$/.test(rateText) ? Number(rateText) : Number.NaN;
  if (!(rate > 0)) {
    throw new Error(
      `the rate must be a positive number of requests per second, got ${JSON.stringify(rateText)} (e.g. "50" or "50,burst=100")`,
    );
  }
  let burst = Math.max(1, Math.ceil(rate));
  for (const option of options) {
    const m = /^burst\s*=\s*(\S*)$/.exec(option);
    if (m === null) {
      throw new Error(`unknown rate-limit option ${JSON.stringify(option)} (known: burst=N)`);
    }
    const value = m[1] ?? "";
    if (!/^\d+$/.test(value) || Number(value) < 1) {
      throw new Error(`burst must be a whole number of requests, at least 1, got ${JSON.stringify(value)}`);
    }
    burst = Number(value);
  }
  return { rate, burst };
}

/**
 * Writes a rate limit back in the `--rate-limit` syntax (`none` for no limit).
 *
 * @example
 * formatRateLimit({ rate: 50, burst: 100 }); // "50,burst=100"
 */
export function formatRateLimit(spec: RateLimitSpec | undefined): string {
  return spec === undefined ? "none" : `${spec.rate},burst=${spec.burst}`;
}
