// Fault injection and request statistics: forced faults answer AIP-193 errors with Retry-After or
// reset the connection (before or after the change happened); the counters see every API request.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ErrorBody, Group, TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

const NO_DELIVERIES = { queued: 0, attempts: 0, accepted: 0, rejected: 0, failed: 0, cancelled: 0 };

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const setFaults = (spec: string) => emu.ok<{ spec: string }>("POST", "/_emulator/faults", { body: { spec } });

describe("faults", () => {
  test("503=1 answers code 14 with Retry-After on API and STS routes, not on the control API or the issuer", async () => {
    expect((await setFaults("503=1")).spec).toBe("503=1");
    try {
      const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups");
      expect(a.status).toBe(503);
      expect(a.body.code).toBe(14);
      expect(a.headers.get("retry-after")).toBe("0");
      const sts = await emu.call<ErrorBody>("GET", `${emu.authUrl}/sts/exchange`, { token: "x" });
      expect(sts.body.code).toBe(14);
      expect((await emu.call("GET", "/_emulator/stats")).status).toBe(200);
      expect(
        (await emu.call("POST", `${emu.issuerUrl}/token`, { token: "", body: { subject: "s" } })).status,
      ).toBe(200);
    } finally {
      await setFaults("503=0");
    }
    expect((await emu.call("GET", "/iam/v2beta1/groups")).status).toBe(200);
  });

  test("429=1 answers code 8 and retry-after sets the Retry-After seconds", async () => {
    await setFaults("429=1,retry-after=2");
    try {
      const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/roles");
      expect(a.status).toBe(429);
      expect(a.body.code).toBe(8);
      expect(a.headers.get("retry-after")).toBe("2");
    } finally {
      await setFaults("none");
    }
  });

  test("reset-before=1 kills the connection and nothing changes", async () => {
    emu.setFaults("reset-before=1");
    const outcome = await emu
      .call("POST", `/iam/v2beta1/groups/${emu.orgUid}`, { body: { name: "never" } })
      .then(
        () => "answered",
        () => "reset",
      );
    emu.setFaults("none");
    expect(outcome).toBe("reset");
    expect(
      (await emu.ok<{ groups: Group[] }>("GET", "/iam/v2beta1/groups", { query: { name: "never" } })).groups,
    ).toEqual([]);
  });

  test("reset-after=1 kills the connection after the create happened: the answer is lost, the group exists", async () => {
    emu.setFaults("reset-after=1");
    const outcome = await emu
      .call("POST", `/iam/v2beta1/groups/${emu.orgUid}`, { body: { name: "lost-answer" } })
      .then(
        () => "answered",
        () => "reset",
      );
    emu.setFaults("none");
    expect(outcome).toBe("reset");
    const found = await emu.ok<{ groups: Group[] }>("GET", "/iam/v2beta1/groups", {
      query: { name: "lost-answer" },
    });
    expect(found.groups).toHaveLength(1);
  });

  test("reset=1 strikes sometimes before, sometimes after the handler", async () => {
    let draw = 0;
    const dice = await startTestEmulator({
      faults: "reset=1",
      random: () => [0, 0.2, 0, 0.8][draw++ % 4] as number,
    });
    try {
      for (const name of ["first", "second"]) {
        await dice
          .call("POST", `/iam/v2beta1/groups/${dice.orgUid}`, { body: { name } })
          .catch(() => undefined);
      }
      dice.setFaults("none");
      const names = (await dice.ok<{ groups: Group[] }>("GET", "/iam/v2beta1/groups")).groups.map(
        (g) => g.name,
      );
      expect(names).not.toContain("first");
      expect(names).toContain("second");
    } finally {
      await dice.close();
    }
  });

  test("latency delays every API request", async () => {
    emu.setFaults("latency=60");
    const start = performance.now();
    await emu.call("GET", "/iam/v2beta1/roles");
    const took = performance.now() - start;
    emu.setFaults("none");
    expect(took).toBeGreaterThanOrEqual(55);
  });

  test("a bad spec is code 3 and leaves the faults as they were", async () => {
    const a = await emu.call<ErrorBody>("POST", "/_emulator/faults", { body: { spec: "503=2" } });
    expect(a.body.code).toBe(3);
    expect((await emu.ok<{ spec: string }>("GET", "/_emulator/faults")).spec).toBe("none");
  });

  test("probabilities in between fault some requests and not others", async () => {
    await setFaults("503=0.5");
    const statuses = await Promise.all(
      Array.from({ length: 60 }, () => emu.call("GET", "/iam/v2beta1/roles")),
    );
    await setFaults("none");
    const faulted = statuses.filter((s) => s.status === 503).length;
    expect(faulted).toBeGreaterThan(5);
    expect(faulted).toBeLessThan(55);
  });
});

describe("stats", () => {
  test("count API requests by route pattern and PATCH masks, faulted ones included; reset zeroes them", async () => {
    await emu.ok("POST", "/_emulator/stats/reset");
    const g = await emu.group("counted");
    await emu.ok("PATCH", `/iam/v2beta1/groups/${g.uid}`, {
      body: { description: "d" },
      query: { updateMask: "description" },
    });
    await emu.ok("PATCH", `/iam/v2beta1/groups/${g.uid}`, { body: { description: "e" } });
    await emu.ok("GET", `/iam/v2beta1/groups/${g.uid}?x=1`);
    emu.setFaults("503=1");
    await emu.call("GET", "/iam/v2beta1/groups");
    emu.setFaults("none");
    await emu.call("GET", "/iam/v2beta1/nothing");
    const stats = await emu.ok<{
      total: number;
      requests: Record<string, number>;
      updateMasks: Record<string, number>;
      rateLimited: number;
      deliveries: Record<string, number>;
    }>("GET", "/_emulator/stats");
    expect(stats).toEqual({
      total: 5,
      requests: {
        "POST /iam/v2beta1/groups/*": 1,
        "PATCH /iam/v2beta1/groups/*": 2,
        "GET /iam/v2beta1/groups/*": 1,
        "GET /iam/v2beta1/groups": 1,
      },
      updateMasks: { description: 1 },
      // No rate limit is set: nothing refused (test/integration/emulator/rate-limit.test.ts counts them).
      rateLimited: 0,
      // No subscription: nothing delivered (test/integration/emulator/webhooks.test.ts counts them).
      deliveries: NO_DELIVERIES,
    });
    expect(emu.stats()).toEqual(stats);
    await emu.ok("POST", "/_emulator/stats/reset");
    expect(emu.stats()).toEqual({
      total: 0,
      requests: {},
      updateMasks: {},
      rateLimited: 0,
      deliveries: NO_DELIVERIES,
    });
  });

  test("STS exchanges are counted; issuer and control calls are not", async () => {
    emu.resetStats();
    const id = await emu.identity(emu.orgUid, "stats-id", "stats-subject");
    await emu.exchange(await emu.workloadToken("stats-subject"), id.uid);
    await emu.ok("GET", "/_emulator/faults");
    expect(emu.stats().requests).toEqual({
      "POST /iam/v2beta1/identities/*": 1,
      "GET /auth/sts/exchange": 1,
    });
  });
});
