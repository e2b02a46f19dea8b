// The session every benchmark measures through: the emulator's counters around one command, split
// the way the benchmarks compare them with their minimum, and what a session without Pulumi refuses.
import { describe, expect, it } from "vitest";
import type { MachineInfo } from "../../../bench/support/index.ts";
import { apiCalls, BenchSession, DATA_SOURCE_ROUTE } from "../../../bench/support/index.ts";
import type * as Emulator from "../../../emulator/index.ts";

const machine = { date: "2026-12-01T10:00:00Z", loadAverage: 1 } as MachineInfo;

/** An emulator handle with only the counters (what measure reads) and close. */
function fakeEmulator() {
  const log: string[] = [];
  let requests: Record<string, number> = {};
  const emu = {
    baseUrl: "http://127.0.0.1:1/",
    adminToken: "admin",
    orgUid: "a".repeat(40),
    resetStats: () => {
      log.push("reset");
      requests = {};
    },
    stats: (): Emulator.StatsSnapshot => {
      const total = Object.values(requests).reduce((a, b) => a + b, 0);
      return {
        total,
        requests,
        updateMasks: {},
        rateLimited: requests["POST /iam/v2beta1/groups/*"] ? 1 : 0,
        deliveries: { queued: 0, attempts: 0, accepted: 0, rejected: 0, failed: 0, cancelled: 0 },
      };
    },
    close: async () => {
      log.push("close");
    },
  };
  const call = (route: string, n = 1) => {
    requests[route] = (requests[route] ?? 0) + n;
  };
  return { emu: emu as unknown as Emulator.EmulatorHandle, log, call };
}

describe("BenchSession.measure", () => {
  it("counts the command's own calls (counters zeroed first), data source and 429s apart", async () => {
    const { emu, log, call } = fakeEmulator();
    const session = new BenchSession("test", machine, undefined, emu);
    call("GET /iam/v2beta1/groups/*", 5); // an earlier command's
    const m = await session.measure(async () => {
      log.push("run");
      call("POST /iam/v2beta1/groups/*", 3); // one of them refused with 429
      call(DATA_SOURCE_ROUTE);
      return { durationMs: 1234, events: [] };
    });
    expect(log).toEqual(["reset", "run"]);
    expect(m.durationMs).toBe(1234);
    expect(m.calls).toMatchObject({ total: 4, rateLimited: 1, dataSource: 1, resource: 2 });
    expect(m.calls.byRoute).toEqual({ "POST /iam/v2beta1/groups/*": 3, [DATA_SOURCE_ROUTE]: 1 });
    expect(m.usage).toBeUndefined();
    expect(m.result.events).toEqual([]);
  });

  it("points stacks at the emulator with the admin token as a secret", () => {
    const { emu } = fakeEmulator();
    expect(new BenchSession("test", machine, undefined, emu).irvConfig).toEqual({
      "irv:baseUrl": emu.baseUrl,
      "irv:token": { value: "admin", secret: true },
      orgUid: emu.orgUid,
    });
  });
});

describe("a session without Pulumi or without an emulator", () => {
  it("says so when a benchmark asks for what it did not start", async () => {
    const { emu, log } = fakeEmulator();
    const session = new BenchSession("patterns", machine, undefined, emu);
    await expect(session.stack({ program: "." })).rejects.toThrow(
      "patterns: its session was started with `pulumi: false`, so it has no CLI nor stacks",
    );
    expect(() => new BenchSession("access-review", machine, undefined, undefined).emu).toThrow(
      "access-review: its session was started with `emulator: false`, so it has no emulator",
    );
    await session.close();
    expect(log).toEqual(["close"]);
  });
});

describe("apiCalls", () => {
  it("leaves the resources' accepted calls once the data source and refused ones are taken out", () => {
    expect(
      apiCalls({
        total: 10,
        rateLimited: 2,
        requests: { "POST /iam/v2beta1/groups/*": 9, [DATA_SOURCE_ROUTE]: 1 },
        updateMasks: {},
        deliveries: { queued: 0, attempts: 0, accepted: 0, rejected: 0, failed: 0, cancelled: 0 },
      }),
    ).toMatchObject({ total: 10, rateLimited: 2, dataSource: 1, resource: 7 });
  });
});
