import type { RateLimiterOptions, RetryPolicy } from "../../sdk/index.js";
import { AdaptiveRateLimiter, ConfigurationError, DEFAULT_RETRY_POLICY } from "../../sdk/index.js";

/**
 * The raw settings of request pacing and retries, as strings from stack config or the environment.
 *
 * @example
 * const raw: RequestLimitSettings = { maxRequestsPerSecond: "20", maxRetries: undefined, … };
 */
export interface RequestLimitSettings {
  maxRequestsPerSecond: string | undefined;
  maxRetries: string | undefined;
  retryDelayMs: string | undefined;
  retryMaxDelayMs: string | undefined;
  maxRateLimitWaitSeconds: string | undefined;
}

/**
 * Each setting: config key, environment variable, the rule its value must follow, and the default.
 * README "Configuration" documents the same table.
 *
 * @example
 * REQUEST_LIMIT_SETTINGS.maxRetries.config; // "irv:maxRetries"
 */
export const REQUEST_LIMIT_SETTINGS = {
  maxRequestsPerSecond: {
    config: "irv:maxRequestsPerSecond",
    env: "IRV_MAX_REQUESTS_PER_SECOND",
    rule: "a number above 0",
    valid: (n: number) => n > 0,
  },
  maxRetries: {
    config: "irv:maxRetries",
    env: "IRV_MAX_RETRIES",
    rule: "a whole number from 0 to 100",
    valid: (n: number) => Number.isInteger(n) && n >= 0 && n <= 100,
  },
  retryDelayMs: {
    config: "irv:retryDelayMs",
    env: "IRV_RETRY_DELAY_MS",
    rule: "a whole number of milliseconds from 1 to 600000",
    valid: (n: number) => Number.isInteger(n) && n >= 1 && n <= 600_000,
  },
  retryMaxDelayMs: {
    config: "irv:retryMaxDelayMs",
    env: "IRV_RETRY_MAX_DELAY_MS",
    rule: "a whole number of milliseconds from 1 to 600000",
    valid: (n: number) => Number.isInteger(n) && n >= 1 && n <= 600_000,
  },
  maxRateLimitWaitSeconds: {
    config: "irv:maxRateLimitWaitSeconds",
    env: "IRV_MAX_RATE_LIMIT_WAIT_SECONDS",
    rule: "a number of seconds from 0 to 86400",
    valid: (n: number) => n >= 0 && n <= 86_400,
  },
} as const satisfies Record<
  keyof RequestLimitSettings,
  { config: string; env: string; rule: string; valid: (n: number) => boolean }
>;

/**
 * What the client is built with: its retry policy and its (adaptive) rate limiter options.
 *
 * @example
 * const { retry, maxRequestsPerSecond, maxThrottledMs }: RequestLimits = requestLimitsOf(settings);
 */
export interface RequestLimits {
  retry: RetryPolicy;
  maxRequestsPerSecond: number | undefined;
  maxThrottledMs: number;
}

/**
 * Checks and converts the settings; unset ones take their defaults (no cap, 5 retries, 200 ms
 * doubling to 10 s, ten minutes of rate-limit waits per request). A bad value is a
 * {@link ConfigurationError} naming the key, its environment variable, the rule and the value.
 *
 * @example
 * requestLimitsOf({ maxRetries: "8", maxRequestsPerSecond: undefined, … }).retry.maxAttempts; // 9
 */
export function requestLimitsOf(s: RequestLimitSettings): RequestLimits {
  const number = (key: keyof RequestLimitSettings): number | undefined => {
    const raw = s[key]?.trim();
    if (raw === undefined) return undefined;
    const spec = REQUEST_LIMIT_SETTINGS[key];
    const n = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
    if (!spec.valid(n))
      throw new ConfigurationError(
        `${spec.config} (${spec.env}) must be ${spec.rule}, got ${JSON.stringify(s[key])}`,
      );
    return n;
  };
  const retries = number("maxRetries");
  const initialDelayMs = number("retryDelayMs") ?? DEFAULT_RETRY_POLICY.initialDelayMs;
  const maxDelayMs = number("retryMaxDelayMs") ?? Math.max(DEFAULT_RETRY_POLICY.maxDelayMs, initialDelayMs);
  if (maxDelayMs < initialDelayMs) {
    throw new ConfigurationError(
      `irv:retryMaxDelayMs (${maxDelayMs}) must not be below irv:retryDelayMs (${initialDelayMs})`,
    );
  }
  return {
    retry: {
      ...DEFAULT_RETRY_POLICY,
      maxAttempts: retries === undefined ? DEFAULT_RETRY_POLICY.maxAttempts : retries + 1,
      initialDelayMs,
      maxDelayMs,
    },
    maxRequestsPerSecond: number("maxRequestsPerSecond"),
    maxThrottledMs: (number("maxRateLimitWaitSeconds") ?? 600) * 1000,
  };
}

/**
 * The rate limiter the limits ask for: adaptive, under the explicit cap if there is one, its pause
 * after a 429 capped like a retry's wait (`irv:retryMaxDelayMs`). `clock` injects time for tests.
 *
 * @example
 * new IrvClient({ baseUrl, auth, retry: limits.retry, rateLimiter: rateLimiterFor(limits) });
 */
export function rateLimiterFor(
  limits: RequestLimits,
  clock: Pick<RateLimiterOptions, "now" | "sleep"> = {},
): AdaptiveRateLimiter {
  return new AdaptiveRateLimiter({
    ...clock,
    maxRequestsPerSecond: limits.maxRequestsPerSecond,
    maxThrottledMs: limits.maxThrottledMs,
    maxPauseMs: limits.retry.maxDelayMs,
  });
}
