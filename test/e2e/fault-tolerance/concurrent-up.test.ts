// Two `pulumi up`s of one shared stack at once, as a person and a pipeline start them: the second
// finds the first's lock and fails at once, saying who holds it since when (and, on the PostgreSQL
// backend, without the password of the backend's URL); the first finishes, and nothing is lost or
// made twice. On the file backend and on the CLI's PostgreSQL DIY backend (a throwaway server).
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { POSTGRES_TEST_PASSWORD } from "../../../scripts/postgres-server.js";
import { createsReceived, pendingCreates } from "../support/interrupted-run.js";
import type { OrgTreeShape } from "../support/org-tree.js";
import { declared, inventory, useOrgTreeStack } from "../support/org-tree.js";
import { STATE_BACKENDS } from "../support/state-backend.js";

describe.each(STATE_BACKENDS)("a second pulumi up while one runs, on the %s backend", (backend) => {
  const shape: OrgTreeShape = { groups: 20, identities: 20, bindings: 20, prefix: "both" };
  const t = useOrgTreeStack(shape, {}, backend);

  it("fails at once naming the lock's holder, and the first up converges with nothing lost", async () => {
    // Slow creates keep the first up (and its lock) alive while the second starts.
    t.irv.emulator.setFaults("latency=150");
    await t.irv.resetStats();
    const first = t.stack.up();
    const deadline = Date.now() + 120_000;
    while (createsReceived(t.irv.emulator) < 1 && Date.now() < deadline) await sleep(20);
    expect(createsReceived(t.irv.emulator)).toBeGreaterThanOrEqual(1);

    const second = await t.stack.run(
      ["up", "--yes", "--skip-preview", "--stack", t.stack.stackName, "--non-interactive"],
      { allowFailure: true },
    );
    const said = `${second.stdout}${second.stderr}`;
    expect(second.exitCode).not.toBe(0);
    expect(said).toMatch(/the stack is currently locked by 1 lock\(s\)/);
    expect(said).toMatch(/created by \S+@\S+ \(pid \d+\) at \d{4}-\d\d-\d\dT/);
    expect(said).not.toContain(POSTGRES_TEST_PASSWORD);
    // The second up wrote nothing: the first one's creates are the only ones.
    t.irv.emulator.setFaults("none");
    const done = await first;
    expect(done.exitCode).toBe(0);
    expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
    expect(await t.stack.resources()).toHaveLength(60);
    expect(pendingCreates(await t.stack.exportState())).toEqual([]);
    await t.stack.preview({ args: ["--expect-no-changes"] });
  });
});
