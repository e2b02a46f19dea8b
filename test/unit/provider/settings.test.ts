import { describe, expect, it } from "vitest";
import {
  clientFor,
  rateLimiterFor,
  requestLimitsOf,
  resolveSettings,
  timeoutMsOf,
  tokenSourceFor,
} from "../../../provider/config/index.js";
import { ApiError } from "../../../sdk/index.js";

describe("resolveSettings", () => {
  it("prefers stack config over the environment", () => {
    const s = resolveSettings((k) => ({ "irv:baseUrl": "http://config" })[k], {
      IRV_BASE_URL: "http://env",
      IRV_TOKEN: "env-token",
    });
    expect(s.baseUrl).toBe("http://config");
    expect(s.token).toBe("env-token");
  });

  it("treats an empty config value as unset", () => {
    expect(resolveSettings((k) => (k === "irv:token" ? "" : undefined), { IRV_TOKEN: "env" }).token).toBe(
      "env",
    );
  });
});

describe("tokenSourceFor", () => {
  it("uses the static token when no identity is set", async () => {
    const s = resolveSettings(() => undefined, { IRV_BASE_URL: "http://x", IRV_TOKEN: "abc" });
    expect(await tokenSourceFor(s).getToken()).toBe("abc");
  });

  it("asks for the auth URL when an identity is to be assumed", () => {
    const s = resolveSettings(() => undefined, {
      IRV_BASE_URL: "http://x",
      IRV_IDENTITY: "org/ci",
      IRV_IDENTITY_TOKEN: "t",
    });
    expect(() => tokenSourceFor(s)).toThrow(/irv:authUrl/);
  });

  it("names every way to give credentials when there are none", () => {
    const s = resolveSettings(() => undefined, { IRV_BASE_URL: "http://x" });
    expect(() => tokenSourceFor(s)).toThrow(/irv:token.*IRV_TOKEN.*irv:identity/);
  });
});

describe("requestLimitsOf (pacing and retry settings)", () => {
  const limits = (config: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
    requestLimitsOf(resolveSettings((k) => config[k], env));

  it("defaults: no cap, 5 retries (6 attempts), 200 ms doubling to 10 s, 10 minutes of rate-limit waits", () => {
    expect(limits({})).toEqual({
      retry: { maxAttempts: 6, initialDelayMs: 200, maxDelayMs: 10_000, multiplier: 2 },
      maxRequestsPerSecond: undefined,
      maxThrottledMs: 600_000,
    });
  });

  it("reads each key from stack config, the environment as fallback", () => {
    const l = limits(
      { "irv:maxRequestsPerSecond": "12.5", "irv:maxRetries": "0", "irv:retryDelayMs": "50" },
      { IRV_MAX_RETRIES: "9", IRV_RETRY_MAX_DELAY_MS: "2000", IRV_MAX_RATE_LIMIT_WAIT_SECONDS: "30" },
    );
    expect(l).toEqual({
      retry: { maxAttempts: 1, initialDelayMs: 50, maxDelayMs: 2000, multiplier: 2 },
      maxRequestsPerSecond: 12.5,
      maxThrottledMs: 30_000,
    });
  });

  it.each([
    [
      "irv:maxRequestsPerSecond",
      "0",
      /irv:maxRequestsPerSecond \(IRV_MAX_REQUESTS_PER_SECOND\) must be a number above 0, got "0"/,
    ],
    ["irv:maxRequestsPerSecond", "fast", /must be a number above 0, got "fast"/],
    ["irv:maxRetries", "2.5", /irv:maxRetries \(IRV_MAX_RETRIES\) must be a whole number from 0 to 100/],
    ["irv:maxRetries", "-1", /irv:maxRetries .* got "-1"/],
    [
      "irv:retryDelayMs",
      "0",
      /irv:retryDelayMs \(IRV_RETRY_DELAY_MS\) must be a whole number of milliseconds/,
    ],
    ["irv:retryMaxDelayMs", "100", /irv:retryMaxDelayMs \(100\) must not be below irv:retryDelayMs \(200\)/],
    ["irv:maxRateLimitWaitSeconds", "1e9", /irv:maxRateLimitWaitSeconds .* from 0 to 86400/],
  ])("refuses %s = %j, naming the key, the rule and the value", (key, value, message) => {
    expect(() => limits({ [key]: value })).toThrow(message);
  });

  // Regression (issue 25 item 3): the README promises irv:retryMaxDelayMs caps a server's
  // Retry-After; the 503 path did, the limiter's pause after a 429 did not.
  it("caps the limiter's pause after a 429 at irv:retryMaxDelayMs (Retry-After: 999999 waits 2 s)", async () => {
    const clock = { t: 0 };
    const limiter = rateLimiterFor(limits({ "irv:retryMaxDelayMs": "2000" }), {
      now: () => clock.t,
      sleep: async (ms) => {
        clock.t += ms;
      },
    });
    const refused = limiter.turn();
    await refused.ready();
    refused.answered(
      ApiError.fromResponse({
        method: "GET",
        path: "/x",
        httpStatus: 429,
        body: JSON.stringify({ code: 8, message: "slow down", details: [] }),
        retryAfterMs: 999_999_000,
      }),
    );
    await limiter.turn().ready();
    expect(clock.t).toBe(2000);
  });

  it("gives the client the retry policy and a limiter capped at maxRequestsPerSecond", () => {
    const s = resolveSettings((k) => ({ "irv:maxRequestsPerSecond": "7", "irv:maxRetries": "2" })[k], {
      IRV_BASE_URL: "http://127.0.0.1:9",
      IRV_TOKEN: "t",
    });
    const client = clientFor(s);
    expect(client.transport.rateLimiter.state().rate).toBe(7);
    expect(clientFor(s)).toBe(client);
  });
});

describe("timeoutMsOf", () => {
  it("reads irv:timeoutSeconds (IRV_TIMEOUT_SECONDS) in seconds, fractions allowed", () => {
    expect(timeoutMsOf(resolveSettings((k) => (k === "irv:timeoutSeconds" ? "1.5" : undefined), {}))).toBe(
      1500,
    );
    expect(timeoutMsOf(resolveSettings(() => undefined, { IRV_TIMEOUT_SECONDS: "30" }))).toBe(30_000);
    expect(timeoutMsOf(resolveSettings(() => undefined, {}))).toBeUndefined();
  });

  it("refuses a value that is not a positive number, naming the key and the value", () => {
    const s = resolveSettings(() => undefined, { IRV_TIMEOUT_SECONDS: "soon" });
    expect(() => timeoutMsOf(s)).toThrow(
      'irv:timeoutSeconds (IRV_TIMEOUT_SECONDS) must be a positive number of seconds (got "soon")',
    );
  });
});
