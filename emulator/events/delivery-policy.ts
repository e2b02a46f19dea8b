/**
 * How hard a delivery tries: `retries` attempts after the first, each bounded by `timeoutMs`, the
 * n-th retry after `backoffMs × 2^(n-1)`, or after the sink's `Retry-After` when that is longer; no
 * pause is longer than `maxBackoffMs`, whatever asked for it.
 *
 * @example
 * const policy: DeliveryPolicy = { ...DEFAULT_DELIVERY_POLICY, retries: 2 };
 */
export interface DeliveryPolicy {
  retries: number;
  timeoutMs: number;
  backoffMs: number;
  maxBackoffMs: number;
}

/**
 * The policy unless flags say otherwise: 5 retries, 5 s per attempt, backoff from 100 ms doubling to
 * at most 10 s, which also caps a `Retry-After` (a test's receiver that fails now and then, or asks
 * for an hour's rest, is not kept waiting for long).
 *
 * @example
 * DEFAULT_DELIVERY_POLICY.retries; // 5
 */
export const DEFAULT_DELIVERY_POLICY: Readonly<DeliveryPolicy> = {
  retries: 5,
  timeoutMs: 5_000,
  backoffMs: 100,
  maxBackoffMs: 10_000,
};

/**
 * The limits of the flags: retries from 0 to {@link MAX_DELIVERY_RETRIES}, a timeout from 1 ms to
 * {@link MAX_DELIVERY_TIMEOUT_MS}.
 *
 * @example
 * parseCliArgs(["--delivery-retries", String(MAX_DELIVERY_RETRIES)]);
 */
export const MAX_DELIVERY_RETRIES = 20;
/**
 * The longest attempt a flag may ask for: one minute.
 *
 * @example
 * parseCliArgs(["--delivery-timeout", String(MAX_DELIVERY_TIMEOUT_MS)]);
 */
export const MAX_DELIVERY_TIMEOUT_MS = 60_000;

/**
 * The wait before the attempt after the `attempts`-th.
 *
 * @example
 * backoffMs(DEFAULT_DELIVERY_POLICY, 3); // 400
 */
export function backoffMs(policy: DeliveryPolicy, attempts: number): number {
  return Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (attempts - 1));
}

// IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The pause a sink's answer asks for before the next attempt, in ms: a 429 or a 503 with a
 * `Retry-After` of delay-seconds or of an HTTP date (the IMF-fixdate form senders must use, RFC 9110
 * §10.2.3, §5.6.7), counted from `now`; a date already past asks for none. Undefined when the status
 * is another, the header is absent, or it is neither form (the backoff alone applies).
 *
 * @example
 * requestedPauseMs(503, "2", Date.now()); // 2000
 * requestedPauseMs(429, "Sat, 28 Nov 2026 18:00:05 GMT", Date.parse("2026-11-28T18:00:00Z")); // 5000
 * requestedPauseMs(500, "2", Date.now()); // undefined
 */
export function requestedPauseMs(
  status: number,
  retryAfter: string | null | undefined,
  now: number,
): number | undefined {
  if ((status !== 429 && status !== 503) || retryAfter === null || retryAfter === undefined) return undefined;
  const text = retryAfter.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse alone would take "5" or "1.5" for a date: only the HTTP date form is read as one.
  if (!HTTP_DATE.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The pause before the next attempt to a sink after its `failures`-th failure in a row: the backoff,
 * or the pause the sink asked for ({@link requestedPauseMs}) when that is longer, and never more than
 * `maxBackoffMs`, so that no answer holds the sink's deliveries back past it.
 *
 * @example
 * retryDelayMs(DEFAULT_DELIVERY_POLICY, 1, undefined); // 100
 * retryDelayMs(DEFAULT_DELIVERY_POLICY, 1, 2000); // 2000
 * retryDelayMs(DEFAULT_DELIVERY_POLICY, 1, 3_600_000); // 10000
 */
export function retryDelayMs(
  policy: DeliveryPolicy,
  failures: number,
  requested: number | undefined,
): number {
  return Math.min(policy.maxBackoffMs, Math.max(backoffMs(policy, failures), requested ?? 0));
}

/**
 * Whether an answer is worth another attempt: a 5xx or a 429. Any other answer that is not a 2xx
 * (a 4xx, a redirect) would be the same next time.
 *
 * @example
 * isRetryableStatus(503); // true
 * isRetryableStatus(403); // false
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}
