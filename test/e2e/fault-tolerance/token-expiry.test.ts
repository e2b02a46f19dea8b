// Workload identity with API tokens that expire every few seconds, during an up and a destroy that
// last several lifetimes: the provider (and the program's data source) exchange the workload token
// again as tokens run out, and the runs succeed. They do not exchange for every request either.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import type { OrgTreeShape } from "../support/org-tree.js";
import { declared, inventory, orgTreeConfig } from "../support/org-tree.js";
import { workloadIdentity } from "../support/workload-identity.js";

const TTL_SECONDS = 2;
const EXCHANGE = "GET /auth/sts/exchange";

describe(`an up and a destroy with workload identity and ${TTL_SECONDS}-second API tokens`, () => {
  // A chain of groups (fan-out 1): created one after the other, so the up lasts.
  const shape: OrgTreeShape = { groups: 10, identities: 10, bindings: 10, prefix: "expiring", fanout: 1 };
  let irv: TestEmulator;
  let stack: TestStack;
  let dir: string;

  const apiCalls = (requests: Record<string, number>) =>
    Object.entries(requests)
      .filter(([route]) => route !== EXCHANGE)
      .reduce((n, [, count]) => n + count, 0);

  beforeAll(async () => {
    irv = await startTestEmulator({ tokenTtlSeconds: TTL_SECONDS });
    dir = mkdtempSync(path.join(tmpdir(), "irv-expiry-"));
    const wi = await workloadIdentity(irv, { subject: "repo:acme/infra:ref:refs/heads/main", dir });
    stack = await createStack({
      program: fixtureDir("org-tree-program"),
      config: { ...wi.config, orgUid: irv.emulator.orgUid, ...orgTreeConfig(shape) },
    });
    // Every request waits a little, so that each run outlives several tokens.
    irv.emulator.setFaults("latency=250");
  });

  afterAll(async () => {
    irv?.emulator.setFaults("none");
    await stack?.dispose();
    await irv?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("creates everything although the API token expires several times during the up", async () => {
    await irv.resetStats();
    const up = await stack.up();
    const { requests } = await irv.stats();

    expect(diagnostics(up.events, "error")).toEqual([]);
    expect(await inventory(irv.admin, irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
    expect(up.durationMs).toBeGreaterThan(2 * TTL_SECONDS * 1000);
    // Tokens were exchanged again as they ran out: the program (one data source call) needs one, the
    // provider process one per token lifetime or so.
    expect(requests[EXCHANGE]).toBeGreaterThanOrEqual(4);
    // …but each token served several requests: at most one exchange per two API calls.
    expect(requests[EXCHANGE]).toBeLessThanOrEqual(apiCalls(requests) / 2);
  });

  it("destroys everything with expiring tokens too", async () => {
    await irv.resetStats();
    const destroy = await stack.destroy();
    expect(diagnostics(destroy.events, "error")).toEqual([]);
    expect(await inventory(irv.admin, irv.emulator.orgUid, shape.prefix)).toEqual({
      groups: [],
      identities: [],
      bindings: [],
    });
    expect((await irv.stats()).requests[EXCHANGE]).toBeGreaterThan(0);
  });
});
