import { describe, expect, it } from "vitest";
import { ApiError, Code, DEFAULT_RETRY_POLICY, NetworkError, shouldRetry } from "../../../sdk/index.js";

const apiError = (code: number, retryAfterMs?: number) =>
  new ApiError({
    method: "GET",
    path: "/x",
    httpStatus: 503,
    status: { code, message: "m", details: [] },
    retryAfterMs,
  });
const policy = DEFAULT_RETRY_POLICY;
const half = () => 0.5;

describe("shouldRetry", () => {
  it("retries UNAVAILABLE on a GET with jittered exponential backoff", () => {
    expect(
      shouldRetry({ method: "GET", attempt: 1, error: apiError(Code.UNAVAILABLE), policy, random: half }),
    ).toEqual({ retry: true, delayMs: 100 });
    expect(
      shouldRetry({ method: "GET", attempt: 3, error: apiError(Code.UNAVAILABLE), policy, random: half }),
    ).toEqual({ retry: true, delayMs: 400 });
  });

  it("retries RESOURCE_EXHAUSTED on DELETE and PATCH", () => {
    for (const method of ["DELETE", "PATCH"])
      expect(
        shouldRetry({ method, attempt: 1, error: apiError(Code.RESOURCE_EXHAUSTED), policy }).retry,
      ).toBe(true);
  });

  it("caps the wait at maxDelayMs however many attempts were made", () => {
    const d = shouldRetry({
      method: "GET",
      attempt: 5,
      error: apiError(Code.UNAVAILABLE),
      policy: { ...policy, maxAttempts: 50 },
      random: () => 0.999,
    });
    expect(d).toEqual({ retry: true, delayMs: 3196 });
    const far = shouldRetry({
      method: "GET",
      attempt: 30,
      error: apiError(Code.UNAVAILABLE),
      policy: { ...policy, maxAttempts: 50 },
      random: () => 0.999,
    });
    expect(far.retry && far.delayMs).toBeLessThanOrEqual(policy.maxDelayMs);
  });

  it("waits at least as long as the server's Retry-After asks", () => {
    expect(
      shouldRetry({
        method: "GET",
        attempt: 1,
        error: apiError(Code.RESOURCE_EXHAUSTED, 3000),
        policy,
        random: half,
      }),
    ).toEqual({ retry: true, delayMs: 3000 });
  });

  it("never waits longer than maxDelayMs even if Retry-After asks for more", () => {
    expect(
      shouldRetry({ method: "GET", attempt: 1, error: apiError(Code.UNAVAILABLE, 120_000), policy }),
    ).toEqual({ retry: true, delayMs: policy.maxDelayMs });
  });

  it("does not retry errors that will not go away by waiting", () => {
    for (const code of [
      Code.INVALID_ARGUMENT,
      Code.NOT_FOUND,
      Code.ALREADY_EXISTS,
      Code.PERMISSION_DENIED,
      Code.FAILED_PRECONDITION,
      Code.UNAUTHENTICATED,
      Code.INTERNAL,
    ])
      expect(shouldRetry({ method: "GET", attempt: 1, error: apiError(code), policy }).retry).toBe(false);
  });

  it("does not retry a POST answered UNAVAILABLE: it may have been applied", () => {
    expect(shouldRetry({ method: "POST", attempt: 1, error: apiError(Code.UNAVAILABLE), policy })).toEqual({
      retry: false,
      reason: "POST is not idempotent",
    });
  });

  it("retries a POST whose connection failed before the request was sent", () => {
    expect(
      shouldRetry({
        method: "POST",
        attempt: 1,
        error: new NetworkError("refused", false, "ECONNREFUSED"),
        policy,
      }).retry,
    ).toBe(true);
  });

  it("does not retry a POST whose connection broke after sending", () => {
    expect(
      shouldRetry({
        method: "POST",
        attempt: 1,
        error: new NetworkError("reset", true, "ECONNRESET"),
        policy,
      }).retry,
    ).toBe(false);
  });

  it("retries a GET whose connection broke after sending", () => {
    expect(
      shouldRetry({ method: "GET", attempt: 1, error: new NetworkError("reset", true, "ECONNRESET"), policy })
        .retry,
    ).toBe(true);
  });

  it("gives up after maxAttempts", () => {
    expect(shouldRetry({ method: "GET", attempt: 6, error: apiError(Code.UNAVAILABLE), policy })).toEqual({
      retry: false,
      reason: "the limit of 6 attempts is reached",
    });
  });

  it("is off when maxAttempts is 1", () => {
    expect(
      shouldRetry({
        method: "GET",
        attempt: 1,
        error: apiError(Code.UNAVAILABLE),
        policy: { ...policy, maxAttempts: 1 },
      }).retry,
    ).toBe(false);
  });

  it("does not retry programming errors", () => {
    expect(shouldRetry({ method: "GET", attempt: 1, error: new TypeError("x"), policy }).retry).toBe(false);
  });
});
