import { Code, TYPE_URL_PREFIX } from "pulumi-irv/sdk";
import type { Principal } from "../auth/index.js";
import type { RateLimitSpec } from "../core/index.js";
import { ApiFault } from "../core/index.js";

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in ms of the limiter's clock. */
  at: number;
}

// Buckets of callers that went quiet are dropped once there are this many (a full bucket carries no
// information: a new one starts full too).
const PRUNE_AT = 10_000;

/**
 * Options of {@link RateLimiter}.
 *
 * @example
 * new RateLimiter({ rate: 50, burst: 50 }, { onRefused: () => stats.recordRateLimited() });
 */
export interface RateLimiterOptions {
  /** Called for each refused request (the stats count them). */
  onRefused?: (() => void) | undefined;
  /** Monotonic time in ms; `performance.now` by default. */
  now?: (() => number) | undefined;
}

/**
 * The per-caller rate limit of the API, as the service is expected to enforce it at general
 * availability (spec §8, §9.6): one token bucket per token subject (the admin, or an identity uid),
 * refilled at `rate` per second up to `burst`. A request that finds its bucket empty is refused with
 * code 8 (RESOURCE_EXHAUSTED, HTTP 429), `Retry-After` in whole seconds (rounded up) and a `RetryInfo`
 * detail giving the exact wait until the next token; a refused request takes no token.
 *
 * @example
 * const limiter = new RateLimiter({ rate: 50, burst: 50 });
 * limiter.admit({ kind: "admin" }); // throws an ApiFault once the admin's bucket is empty
 */
export class RateLimiter {
  private current: RateLimitSpec | undefined;
  private readonly buckets = new Map<string, Bucket>();

  private readonly now: () => number;
  private readonly onRefused: () => void;

  constructor(spec: RateLimitSpec | undefined = undefined, options: RateLimiterOptions = {}) {
    this.current = spec;
    this.now = options.now ?? (() => performance.now());
    this.onRefused = options.onRefused ?? (() => {});
  }

  /**
   * Replaces the limit (undefined: none); every caller starts again with a full bucket.
   *
   * @example
   * limiter.set({ rate: 5, burst: 1 });
   */
  set(spec: RateLimitSpec | undefined): void {
    this.current = spec === undefined ? undefined : { ...spec };
    this.buckets.clear();
  }

  /** The limit in force, if any. */
  get spec(): RateLimitSpec | undefined {
    return this.current === undefined ? undefined : { ...this.current };
  }

  /**
   * Takes a token from the caller's bucket, or throws the 429 fault saying how long to wait.
   *
   * @example
   * limiter.admit({ kind: "identity", uid });
   */
  admit(principal: Principal): void {
    const spec = this.current;
    if (spec === undefined) return;
    const key = principal.kind === "admin" ? "admin" : principal.uid;
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= PRUNE_AT) this.prune(spec, now);
      bucket = { tokens: spec.burst, at: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(spec.burst, bucket.tokens + ((now - bucket.at) / 1000) * spec.rate);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    this.onRefused();
    throw rateLimited(spec, key, ((1 - bucket.tokens) / spec.rate) * 1000);
  }

  private prune(spec: RateLimitSpec, now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * spec.rate >= spec.burst) this.buckets.delete(key);
    }
  }
}

/** The 429 answer: RetryInfo with millisecond precision, QuotaFailure naming the caller. */
function rateLimited(spec: RateLimitSpec, key: string, waitMs: number): ApiFault {
  const delay = `${(Math.ceil(waitMs) / 1000).toFixed(3)}s`;
  const subject = key === "admin" ? "the admin token" : `identity ${key}`;
  const limit = `${spec.rate} requests per second (burst ${spec.burst})`;
  return new ApiFault(
    Code.RESOURCE_EXHAUSTED,
    `rate limit of ${limit} exceeded for ${subject}; retry in ${delay}`,
    [
      { "@type": `${TYPE_URL_PREFIX}RetryInfo`, retryDelay: delay },
      {
        "@type": `${TYPE_URL_PREFIX}QuotaFailure`,
        violations: [{ subject: key, description: `at most ${limit} per caller` }],
      },
    ],
    { "retry-after": String(Math.max(1, Math.ceil(waitMs / 1000))) },
  );
}
