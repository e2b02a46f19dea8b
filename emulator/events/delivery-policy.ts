/**
 * How hard a delivery tries: `retries` attempts after the first, each bounded by `timeoutMs`, the
 * n-th retry after `backoffMs × 2^(n-1)` (at most `maxBackoffMs`).
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
 * at most 10 s (a test's receiver that fails now and then is not kept waiting for long).
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
