// A `pulumi up` killed with SIGKILL mid-way, while creates are in flight: the CLI dies at once, so
// the creates its provider then completes are never recorded (they stay "pending" in the state, the
// groups exist). Then repaired the way README.md's "Recovering from
// an interrupted up" says: `pulumi cancel`; `pulumi stack export`, adopt each pending create the
// service did make (its uid as the id), drop the pending creates, `pulumi stack import`; then
// `pulumi up --refresh`. It converges with no duplicates.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStack, fixtureDir, type TestStack } from "../harness/index.js";
import {
  adoptPendingCreates,
  createdBy,
  type PendingCreate,
  pendingCreates,
  repairFileBackend,
  startKillable,
} from "../support/interrupted-run.js";
import { startTestEmulator, type TestEmulator } from "../support/irv-emulator.js";
import { declared, inventory, type OrgTreeShape, orgTreeConfig } from "../support/org-tree.js";

const LATENCY_MS = 250;
const POSTS = [
  "POST /iam/v2beta1/groups/*",
  "POST /iam/v2beta1/identities/*",
  "POST /iam/v2beta1/roleBindings/*",
];

describe("an up killed with SIGKILL while creates are in flight", () => {
  const shape: OrgTreeShape = { groups: 20, identities: 20, bindings: 20, prefix: "killed" };
  let irv: TestEmulator;
  let stack: TestStack;
  let pending: PendingCreate[] = [];

  const heldUids = async () => {
    const all = await Promise.all([
      irv.admin.groups.collect({ descendantsOf: irv.emulator.orgUid }),
      irv.admin.identities.collect({ descendantsOf: irv.emulator.orgUid }),
      irv.admin.roleBindings.collect({ descendantsOf: irv.emulator.orgUid }),
    ]);
    return all.flat().map((r) => r.uid);
  };
  const stateIds = async () => (await stack.resources()).map((r) => r.id as string);

  beforeAll(async () => {
    irv = await startTestEmulator();
    stack = await createStack({
      program: fixtureDir("org-tree-program"),
      config: { ...irv.config, ...orgTreeConfig(shape) },
    });
  });

  afterAll(async () => {
    irv?.emulator.setFaults("none");
    await stack?.dispose();
    await irv?.close();
  });

  it("leaves pending creates in the state, some of which the service did make", async () => {
    // Slow requests down so that creates are in flight when the kill comes: a POST counted by the
    // emulator is still waiting out its latency; the provider (which outlives the CLI, see killCli)
    // gets its answer, but the engine that would record it is gone.
    irv.emulator.setFaults(`latency=${LATENCY_MS}`);
    await irv.resetStats();
    const run = startKillable(stack, [
      "up",
      "--yes",
      "--skip-preview",
      "--stack",
      stack.stackName,
      "--non-interactive",
    ]);
    const posts = () => POSTS.reduce((n, route) => n + (irv.emulator.stats().requests[route] ?? 0), 0);
    const deadline = Date.now() + 120_000;
    while (posts() < 12 && Date.now() < deadline) await sleep(20);
    expect(posts()).toBeGreaterThanOrEqual(12);
    await run.killCli({ settleMs: 3 * LATENCY_MS });
    irv.emulator.setFaults("none");
    // If the kill caught the file backend writing a checkpoint's attributes, the README's first
    // recovery step applies: delete the empty `.attrs` file ("failed to load checkpoint: EOF").
    const repaired = repairFileBackend(path.join(stack.workDir, "state"));
    if (repaired.length > 0)
      console.info(`the kill left empty attribute files, deleted: ${repaired.join(", ")}`);

    pending = pendingCreates(await stack.exportState());
    expect(pending.length).toBeGreaterThan(0);
    const recorded = new Set(await stateIds());
    const unrecorded = (await heldUids()).filter((uid) => !recorded.has(uid));
    expect(unrecorded.length).toBeGreaterThan(0);
  });

  it("refuses a plain up until the stale lock is cancelled, then stops at each create that did happen", async () => {
    const locked = await stack.up({ allowFailure: true });
    expect(locked.exitCode).not.toBe(0);
    expect(`${locked.stdout}${locked.stderr}`).toMatch(/locked.*pulumi cancel/s);

    await stack.run(["cancel", "--yes", "--stack", stack.stackName, "--non-interactive"]);
    const retried = await stack.up({ allowFailure: true });
    // Sending such a create again is refused; the message names the uid to import.
    expect(retried.exitCode).not.toBe(0);
    expect(retried.stdout).toMatch(/ALREADY_EXISTS .*\((uid|binding) [0-9a-f]{40}\//);
    // Nothing was duplicated on the way.
    const held = await inventory(irv.admin, irv.emulator.orgUid, shape.prefix);
    for (const names of Object.values(held)) expect(new Set(names).size).toBe(names.length);
  });

  it("converges after the creates the service made are adopted into the state and up refreshes", async () => {
    const state = await stack.exportState();
    pending = pendingCreates(state);
    const made = new Map<string, string>();
    for (const op of pending) {
      const uid = await createdBy(irv.admin, op);
      if (uid !== undefined) made.set(op.urn, uid);
    }
    const repaired = adoptPendingCreates(state, made);
    // At least one create happened that the state does not record (the plain up could not redo it).
    expect((repaired.deployment.resources ?? []).length).toBeGreaterThan(
      (state.deployment.resources ?? []).length,
    );
    const file = path.join(stack.workDir, "repaired-state.json");
    writeFileSync(file, JSON.stringify(repaired));
    await stack.run(["stack", "import", "--file", file, "--stack", stack.stackName, "--non-interactive"]);
    expect(pendingCreates(await stack.exportState())).toEqual([]);

    await stack.up({ args: ["--refresh"] });
    expect(await inventory(irv.admin, irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
    const ids = await stateIds();
    expect(ids).toHaveLength(60);
    expect(new Set(ids)).toEqual(new Set(await heldUids()));
    // The adopted resources have their real outputs now, and nothing is left to change.
    const adopted = (await stack.resources()).filter((r) => made.has(r.urn));
    for (const r of adopted) expect(r.outputs?.uid).toBe(r.id);
    await stack.preview({ args: ["--expect-no-changes"] });
  });

  it("destroys everything afterwards", async () => {
    await stack.destroy();
    expect(await heldUids()).toEqual([]);
  });
});
