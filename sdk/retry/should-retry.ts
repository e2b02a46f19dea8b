import { ApiError, NetworkError } from "../errors/api-error.js";
import { Code } from "../errors/codes.js";

/**
 * How the client retries (AIP-194): capped exponential backoff with full jitter.
 *
 * @example
 * const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 8 };
 */
export interface RetryPolicy {
  /** Total attempts including the first; 1 turns retries off. */
  maxAttempts: number;
  /** Backoff ceiling before jitter for the first retry, in ms. */
  initialDelayMs: number;
  /** Upper bound of any single wait, in ms (also caps a server's Retry-After). */
  maxDelayMs: number;
  /** Growth of the ceiling per attempt. */
  multiplier: number;
}

/**
 * The defaults: 6 attempts, 200 ms doubling up to 10 s.
 *
 * @example
 * new IrvClient({ baseUrl, token, retry: DEFAULT_RETRY_POLICY });
 */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 6,
  initialDelayMs: 200,
  maxDelayMs: 10_000,
  multiplier: 2,
});

/**
 * Retries switched off: one attempt.
 *
 * @example
 * new IrvClient({ baseUrl, token, retry: NO_RETRY });
 */
export const NO_RETRY: Readonly<RetryPolicy> = Object.freeze({ ...DEFAULT_RETRY_POLICY, maxAttempts: 1 });

/**
 * What {@link shouldRetry} decides from.
 *
 * @example
 * const input: RetryInput = { method: "DELETE", attempt: 1, error, policy: DEFAULT_RETRY_POLICY };
 * shouldRetry(input);
 */
export interface RetryInput {
  /** HTTP method of the failed request. */
  method: string;
  /** The attempt that just failed, 1 for the first. */
  attempt: number;
  error: unknown;
  policy: Readonly<RetryPolicy>;
  /** Source of randomness in [0, 1), injectable for tests. */
  random?: () => number;
  /**
   * True when repeating the request is known to be safe whatever its method: it never left (the
   * token source failed first), or a lookup showed that the earlier attempt made nothing.
   */
  safeToRepeat?: boolean;
}

/**
 * The decision: retry after `delayMs`, or give up with a reason.
 *
 * @example
 * const decision: RetryDecision = shouldRetry({ method: "GET", attempt, error, policy });
 * if (!decision.retry) throw new Error(decision.reason, { cause: error });
 * await sleep(decision.delayMs);
 */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"]);

/**
 * Decides whether a failed request is retried, and after how long. Pure: same input, same answer.
 *
 * - Only `UNAVAILABLE` (14) and `RESOURCE_EXHAUSTED` (8) answers, and network failures, are retried.
 * - Only idempotent methods are retried (GET, DELETE, and PATCH, whose masked updates set absolute
 *   values); a POST only when the connection failed before the request was sent.
 * - The wait is full-jitter exponential backoff capped at `maxDelayMs`; a server's `Retry-After`
 *   is honoured (never waiting less than it asked, never more than `maxDelayMs`).
 *
 * @example
 * shouldRetry({ method: "GET", attempt: 1, error: unavailable, policy: DEFAULT_RETRY_POLICY });
 * // → { retry: true, delayMs: 137 }
 */
export function shouldRetry(input: RetryInput): RetryDecision {
  const { method, attempt, error, policy } = input;
  const random = input.random ?? Math.random;
  if (attempt >= policy.maxAttempts)
    return { retry: false, reason: `the limit of ${policy.maxAttempts} attempts is reached` };
  const idempotent = input.safeToRepeat === true || IDEMPOTENT.has(method.toUpperCase());
  let retryAfterMs: number | undefined;
  if (error instanceof ApiError) {
    if (error.code !== Code.UNAVAILABLE && error.code !== Code.RESOURCE_EXHAUSTED)
      return { retry: false, reason: `${error.codeName} is not retryable` };
    if (!idempotent) return { retry: false, reason: `${method} is not idempotent` };
    retryAfterMs = error.retryAfterMs;
  } else if (error instanceof NetworkError) {
    if (!idempotent && error.sent) return { retry: false, reason: `${method} may have been delivered` };
  } else {
    return { retry: false, reason: "not a transport or API failure" };
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** (attempt - 1));
  let delayMs = Math.floor(random() * ceiling);
  if (retryAfterMs !== undefined) delayMs = Math.min(policy.maxDelayMs, Math.max(delayMs, retryAfterMs));
  return { retry: true, delayMs };
}
