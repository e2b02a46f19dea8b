// A `pulumi up` killed with SIGKILL mid-way, while creates are in flight: the CLI dies at once, so
// the creates its provider then completes are never recorded (they stay "pending" in the state, the
// groups exist). Then repaired the way README.md's "Recovering from
// an interrupted up" says: `pulumi cancel`; `pulumi stack export`, adopt each pending create the
// service did make (its uid as the id), drop the pending creates, `pulumi stack import`; then
// `pulumi up --refresh`. It converges with no duplicates.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";

import {
  adoptPendingCreates,
  createdBy,
  type PendingCreate,
  pendingCreates,
  repairFileBackend,
  startKillable,
} from "../support/interrupted-run.js";
import { declared, inventory, type OrgTreeShape, useOrgTreeStack } from "../support/org-tree.js";

const LATENCY_MS = 250;
const POSTS = [
  "POST /iam/v2beta1/groups/*",
  "POST /iam/v2beta1/identities/*",
  "POST /iam/v2beta1/roleBindings/*",
];

describe("an up killed with SIGKILL while creates are in flight", () => {
  const shape: OrgTreeShape = { groups: 20, identities: 20, bindings: 20, prefix: "killed" };
  const t = useOrgTreeStack(shape);
  let pending: PendingCreate[] = [];

  const heldUids = async () => {
    const all = await Promise.all([
      t.irv.admin.groups.collect({ descendantsOf: t.irv.emulator.orgUid }),
      t.irv.admin.identities.collect({ descendantsOf: t.irv.emulator.orgUid }),
      t.irv.admin.roleBindings.collect({ descendantsOf: t.irv.emulator.orgUid }),
    ]);
    return all.flat().map((r) => r.uid);
  };
  const stateIds = async () => (await t.stack.resources()).map((r) => r.id as string);

  it("leaves pending creates in the state, some of which the service did make", async () => {
    // Slow requests down so that creates are in flight when the kill comes: a POST counted by the
    // emulator is still waiting out its latency; the provider (which outlives the CLI, see killCli)
    // gets its answer, but the engine that would record it is gone.
    t.irv.emulator.setFaults(`latency=${LATENCY_MS}`);
    await t.irv.resetStats();
    const run = startKillable(t.stack, [
      "up",
      "--yes",
      "--skip-preview",
      "--stack",
      t.stack.stackName,
      "--non-interactive",
    ]);
    const posts = () => POSTS.reduce((n, route) => n + (t.irv.emulator.stats().requests[route] ?? 0), 0);
    const deadline = Date.now() + 120_000;
    while (posts() < 12 && Date.now() < deadline) await sleep(20);
    expect(posts()).toBeGreaterThanOrEqual(12);
    await run.killCli({ settleMs: 3 * LATENCY_MS });
    t.irv.emulator.setFaults("none");
    // If the kill caught the file backend writing a checkpoint's attributes, the README's first
    // recovery step applies: delete the empty `.attrs` file ("failed to load checkpoint: EOF").
    const repaired = repairFileBackend(path.join(t.stack.workDir, "state"));
    if (repaired.length > 0)
      console.info(`the kill left empty attribute files, deleted: ${repaired.join(", ")}`);

    pending = pendingCreates(await t.stack.exportState());
    expect(pending.length).toBeGreaterThan(0);
    const recorded = new Set(await stateIds());
    const unrecorded = (await heldUids()).filter((uid) => !recorded.has(uid));
    expect(unrecorded.length).toBeGreaterThan(0);
  });

  it("refuses a plain up until the stale lock is cancelled, then stops at each create that did happen", async () => {
    const locked = await t.stack.up({ allowFailure: true });
    expect(locked.exitCode).not.toBe(0);
    expect(`${locked.stdout}${locked.stderr}`).toMatch(/locked.*pulumi cancel/s);

    await t.stack.run(["cancel", "--yes", "--stack", t.stack.stackName, "--non-interactive"]);
    const retried = await t.stack.up({ allowFailure: true });
    // Sending such a create again is refused; the message names the uid to import.
    expect(retried.exitCode).not.toBe(0);
    expect(retried.stdout).toMatch(/ALREADY_EXISTS .*\((uid|binding) [0-9a-f]{40}\//);
    // Nothing was duplicated on the way.
    const held = await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix);
    for (const names of Object.values(held)) expect(new Set(names).size).toBe(names.length);
  });

  it("converges after the creates the service made are adopted into the state and up refreshes", async () => {
    const state = await t.stack.exportState();
    pending = pendingCreates(state);
    const made = new Map<string, string>();
    for (const op of pending) {
      const uid = await createdBy(t.irv.admin, op);
      if (uid !== undefined) made.set(op.urn, uid);
    }
    const repaired = adoptPendingCreates(state, made);
    // At least one create happened that the state does not record (the plain up could not redo it).
    expect((repaired.deployment.resources ?? []).length).toBeGreaterThan(
      (state.deployment.resources ?? []).length,
    );
    const file = path.join(t.stack.workDir, "repaired-state.json");
    writeFileSync(file, JSON.stringify(repaired));
    await t.stack.run(["stack", "import", "--file", file, "--stack", t.stack.stackName, "--non-interactive"]);
    expect(pendingCreates(await t.stack.exportState())).toEqual([]);

    await t.stack.up({ args: ["--refresh"] });
    expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
    const ids = await stateIds();
    expect(ids).toHaveLength(60);
    expect(new Set(ids)).toEqual(new Set(await heldUids()));
    // The adopted resources have their real outputs now, and nothing is left to change.
    const adopted = (await t.stack.resources()).filter((r) => made.has(r.urn));
    for (const r of adopted) expect(r.outputs?.uid).toBe(r.id);
    await t.stack.preview({ args: ["--expect-no-changes"] });
  });

  it("destroys everything afterwards", async () => {
    await t.stack.destroy();
    expect(await heldUids()).toEqual([]);
  });
});
