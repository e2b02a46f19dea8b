// The client against the emulator's per-caller rate limit, over HTTP: the adaptive limiter shared by
// a client's requests settles at the rate the service allows, so that few requests are refused, and
// an explicit maxRequestsPerSecond keeps it under a limit it never has to discover. Assertions are
// counts from the emulator's stats (requests, 429s), never times.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../../emulator/index.js";
import { startEmulator } from "../../../emulator/index.js";
import { AdaptiveRateLimiter, IrvClient } from "../../../sdk/index.js";

let emulator: EmulatorHandle;
let groupUid: string;

beforeAll(async () => {
  emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
  const admin = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  groupUid = (await admin.groups.create(emulator.orgUid, { name: "limited" })).uid;
  await admin.close();
});
afterAll(() => emulator.close());

/** `n` reads at once through one client; the emulator's counts of what it took. */
async function burst(n: number, rateLimiter?: AdaptiveRateLimiter) {
  const client = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken, rateLimiter });
  emulator.resetStats();
  try {
    const groups = await Promise.all(Array.from({ length: n }, () => client.groups.get(groupUid)));
    const { total, rateLimited } = emulator.stats();
    return { read: groups.filter((g) => g.uid === groupUid).length, total, rateLimited };
  } finally {
    await client.close();
  }
}

describe("the adaptive limiter against a server limit", () => {
  it("settles at the rate the service allows: 300 reads at once under 40/s, at most 10 % of requests refused", async () => {
    emulator.setRateLimit("40");
    const r = await burst(300);
    expect(r.read).toBe(300);
    // Without the limiter about half of all requests are refused (each retried read hits the empty
    // bucket again); with it, the refusals are the first requests in flight and one per probe.
    expect(r.rateLimited).toBeGreaterThan(0);
    expect(r.rateLimited / r.total).toBeLessThanOrEqual(0.1);
    expect(r.total - r.rateLimited).toBe(300);
  });
});

describe("an explicit maxRequestsPerSecond", () => {
  it("keeps a client under a limit it never has to discover: no request refused, where an uncapped client is refused", async () => {
    emulator.setRateLimit("40,burst=10");
    const capped = await burst(30, new AdaptiveRateLimiter({ maxRequestsPerSecond: 10 }));
    expect(capped).toEqual({ read: 30, total: 30, rateLimited: 0 });

    emulator.setRateLimit("40,burst=10"); // a full bucket again
    const uncapped = await burst(30);
    expect(uncapped.read).toBe(30);
    expect(uncapped.rateLimited).toBeGreaterThan(0);
  });
});
