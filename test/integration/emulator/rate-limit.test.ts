// The per-caller rate limit (`--rate-limit RATE[,burst=N]`): a token bucket per token subject that
// answers 429 RESOURCE_EXHAUSTED in AIP-193 shape with Retry-After and RetryInfo once it is empty,
// counted by the stats, switchable through the control API. Rates here are tiny (one token per ten
// seconds) so that no refill happens during a test, however slow the machine.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ErrorBody, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ rateLimit: "0.1,burst=3" });
});
afterAll(() => emu.close());

const setRateLimit = (spec: unknown) =>
  emu.call<{ spec: string } & ErrorBody>("POST", "/_emulator/rate-limit", { body: { spec } });

describe("a caller over its rate limit", () => {
  test("gets its burst, then 429 code 8 with Retry-After, RetryInfo and QuotaFailure; the stats count the 429s", async () => {
    await setRateLimit("0.1,burst=3");
    emu.resetStats();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await emu.call("GET", "/iam/v2beta1/roles")).status);
    const refused = await emu.call<ErrorBody>("GET", "/iam/v2beta1/roles");
    expect(statuses).toEqual([200, 200, 200]);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(8);
    expect(refused.body.message).toMatch(
      /^Resource exhausted: rate limit of 0.1 requests per second \(burst 3\)/,
    );
    expect(detail(refused.body, "ErrorInfo")).toMatchObject({ reason: "RESOURCE_EXHAUSTED" });
    // The next token comes in up to ten seconds: the header in whole seconds, RetryInfo in ms.
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    const { retryDelay } = detail<{ retryDelay: string }>(refused.body, "RetryInfo");
    expect(retryDelay).toMatch(/^\d+\.\d{3}s$/);
    expect(Math.ceil(Number.parseFloat(retryDelay))).toBe(retryAfter);
    expect(detail(refused.body, "QuotaFailure")).toMatchObject({ violations: [{ subject: "admin" }] });
    expect(refused.headers.get("x-request-id")).toBeTruthy();

    const stats = emu.stats();
    expect(stats.rateLimited).toBe(1);
    // Refused requests are requests too: counted in the total and per route.
    expect(stats.total).toBe(4);
    expect(stats.requests["GET /iam/v2beta1/roles"]).toBe(4);
  });

  test("is limited alone: another token subject has its own bucket, and the control API is never limited", async () => {
    await setRateLimit("none");
    const token = await emu.tokenWithRole(emu.orgUid, "viewer");
    await setRateLimit("0.1,burst=1");
    expect((await emu.call("GET", "/iam/v2beta1/roles")).status).toBe(200);
    expect((await emu.call("GET", "/iam/v2beta1/roles")).status).toBe(429);
    // The identity's bucket is full although the admin's is empty.
    expect((await emu.call("GET", "/iam/v2beta1/roles", { token })).status).toBe(200);
    const second = await emu.call<ErrorBody>("GET", "/iam/v2beta1/roles", { token });
    expect(second.status).toBe(429);
    expect(detail(second.body, "QuotaFailure")).toMatchObject({
      violations: [{ subject: expect.stringMatching(/^[0-9a-f]{40}\//) }],
    });
    for (let i = 0; i < 3; i++) expect((await emu.call("GET", "/_emulator/stats")).status).toBe(200);
  });

  test("a request without valid credentials is answered 401, not 429, and takes no token", async () => {
    await setRateLimit("0.1,burst=1");
    expect((await emu.call<ErrorBody>("GET", "/iam/v2beta1/roles", { token: "forged" })).status).toBe(401);
    expect((await emu.call("GET", "/iam/v2beta1/roles")).status).toBe(200);
  });
});

describe("the control API", () => {
  test("sets, reads and lifts the limit (a new limit starts every caller with a full bucket)", async () => {
    expect((await setRateLimit("0.1,burst=1")).body.spec).toBe("0.1,burst=1");
    expect((await emu.call("GET", "/iam/v2beta1/roles")).status).toBe(200);
    expect((await emu.call("GET", "/iam/v2beta1/roles")).status).toBe(429);
    expect((await setRateLimit("0.1,burst=2")).body.spec).toBe("0.1,burst=2");
    expect((await emu.call("GET", "/iam/v2beta1/roles")).status).toBe(200);
    expect((await emu.ok<{ spec: string }>("GET", "/_emulator/rate-limit")).spec).toBe("0.1,burst=2");
    expect((await setRateLimit("none")).body.spec).toBe("none");
    for (let i = 0; i < 5; i++) expect((await emu.call("GET", "/iam/v2beta1/roles")).status).toBe(200);
    expect(emu.setRateLimit("7")).toEqual({ rate: 7, burst: 7 });
    expect(emu.setRateLimit(undefined)).toBeUndefined();
  });

  test.each([
    [{ spec: "fast" }, /rate must be a positive number/],
    [{ spec: "5,burst=0" }, /burst must be a whole number/],
    [{}, /spec: is required/],
  ])("refuses %j with code 3 naming spec", async (body, message) => {
    const a = await emu.call<ErrorBody>("POST", "/_emulator/rate-limit", { body });
    expect(a.status).toBe(400);
    expect(a.body.code).toBe(3);
    expect(detail(a.body, "BadRequest")).toMatchObject({ fieldViolations: [{ field: "spec" }] });
    expect(a.body.message).toMatch(message);
  });
});

test("--latency (latencyMs) is the latency= fault", async () => {
  const slow = await startTestEmulator({ latencyMs: 15, faults: "latency=3" });
  try {
    expect((await slow.ok<{ spec: string }>("GET", "/_emulator/faults")).spec).toBe("latency=15");
  } finally {
    await slow.close();
  }
});
