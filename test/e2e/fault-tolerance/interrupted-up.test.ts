// `pulumi up` of a 120-resource org (60 on PostgreSQL) killed with SIGKILL while creates are in
// flight, at several points: the CLI dies at once, so the creates its provider then completes are never recorded (they
// stay "pending" in the state, the resources exist). `pulumi-irv recover` repairs the stack each
// time (stale lock, empty attribute files, pending creates adopted or dropped), and a plain
// `pulumi up` then converges with no duplicates. A same-named resource made before the run is
// refused, naming it. Every case runs on the file backend and on the CLI's PostgreSQL DIY backend
// (a throwaway server): recover reads when the killed run began from the stale lock (a file there, a
// row of the state table here), else from the update history.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";

import { createsReceived, pendingCreates, startKillable } from "../support/interrupted-run.js";
import { recoverStack, runOpsCli } from "../support/ops-cli.js";
import type { OrgTreeShape, OrgTreeStack } from "../support/org-tree.js";
import { declared, inventory, useOrgTreeStack } from "../support/org-tree.js";
import { STATE_BACKENDS } from "../support/state-backend.js";

const LATENCY_MS = 200;
const heldUids = async (t: OrgTreeStack) => {
  const org = t.irv.emulator.orgUid;
  const all = await Promise.all([
    t.irv.admin.groups.collect({ descendantsOf: org }),
    t.irv.admin.identities.collect({ descendantsOf: org }),
    t.irv.admin.roleBindings.collect({ descendantsOf: org }),
  ]);
  return new Set(all.flat().map((r) => r.uid));
};
const stateIds = async (t: OrgTreeStack) => new Set((await t.stack.resources()).map((r) => r.id as string));

/**
 * Starts `pulumi up`, waits until `posts` creates reached the service, and SIGKILLs it. Resolves
 * with our clock's reading just before the up started.
 */
async function killUpAfter(t: OrgTreeStack, posts: number): Promise<number> {
  // Slow requests down so that creates are in flight when the kill comes: a POST counted by the
  // emulator is still waiting out its latency; the provider (which outlives the CLI, see killCli)
  // gets its answer, but the engine that would record it is gone.
  t.irv.emulator.setFaults(`latency=${LATENCY_MS}`);
  await t.irv.resetStats();
  const startedAt = Date.now();
  const run = startKillable(t.stack, [
    "up",
    "--yes",
    "--skip-preview",
    "--stack",
    t.stack.stackName,
    "--non-interactive",
  ]);
  const count = () => createsReceived(t.irv.emulator);
  const deadline = Date.now() + 120_000;
  while (count() < posts && Date.now() < deadline) await sleep(20);
  expect(count()).toBeGreaterThanOrEqual(posts);
  await run.killCli({ settleMs: 3 * LATENCY_MS });
  t.irv.emulator.setFaults("none");
  return startedAt;
}

describe.each(STATE_BACKENDS)("on the %s backend", (backend) => {
  // Every checkpoint rewrites the whole state, so an up's cost grows with the square of the org's
  // size, and on PostgreSQL a checkpoint costs about three times what it does on a file
  // (bench/state-backends.ts). What is pinned (kills with creates in flight, at several points, then
  // adoption and convergence) holds at any size with creates left after the last kill: the org is
  // kept small (it was 300 and 150 resources, 40 % of npm test's slowest file), half that on PostgreSQL.
  const per = backend === "file" ? 40 : 20;
  describe(`pulumi-irv recover after ups of ${3 * per} resources killed with SIGKILL`, () => {
    const shape: OrgTreeShape = { groups: per, identities: per, bindings: per, prefix: "killed" };
    // What a killed run leaves is what its checkpoints wrote: the harness's default skips them.
    const t = useOrgTreeStack(shape, {}, backend, { checkpoints: true });

    it("dry run: reports the creates the service made and the rest, and writes nothing", async () => {
      const startedAt = await killUpAfter(t, 15);
      const before = await t.stack.exportState().catch(() => undefined);
      const dry = await recoverStack(t.stack);
      expect(dry.stderr).toBe("");
      expect(dry.exitCode).toBe(0);
      // The killed run's start is its lock's: taken after we started the up, before recover ran.
      const began = /interrupted run began at (\S+) \(the stale lock's time\)/.exec(dry.stdout)?.[1];
      expect(began).toBeDefined();
      expect(Date.parse(began as string)).toBeGreaterThanOrEqual(startedAt);
      expect(Date.parse(began as string)).toBeLessThanOrEqual(Date.now());
      // The service made creates the state does not record: those are what recover would adopt.
      const recorded = await stateIds(t);
      const unrecorded = [...(await heldUids(t))].filter((uid) => !recorded.has(uid));
      expect(unrecorded.length).toBeGreaterThan(0);
      for (const uid of unrecorded) expect(dry.stdout).toContain(uid);
      expect(dry.stdout.match(/^would adopt: /gm)?.length).toBe(unrecorded.length);
      expect(dry.stdout).toMatch(/would cancel the stale lock/);
      const after = await t.stack.exportState();
      expect(pendingCreates(after).length).toBeGreaterThan(0);
      if (before !== undefined)
        expect(after.deployment.pending_operations).toEqual(before.deployment.pending_operations);
    });

    it("--apply after each kill adopts what the service made, and up then converges with no duplicates", async () => {
      // The dry run's kill, then one more; a third on files only: a stack recovered once and killed
      // again is no matter of the backend, and each kill costs an up's worth of CPU.
      const kills = backend === "file" ? [0, (3 * per) / 5, (3 * per) / 5] : [0, (3 * per) / 5];
      for (const posts of kills) {
        if (posts > 0) await killUpAfter(t, posts);
        const held = await heldUids(t);
        const r = await recoverStack(t.stack, ["--apply"]);
        expect(r.stderr).toBe("");
        expect(r.exitCode).toBe(0);
        // Every resource the service holds is now in the state, once; nothing is pending.
        expect(await stateIds(t)).toEqual(held);
        expect(pendingCreates(await t.stack.exportState())).toEqual([]);
        expect(r.stdout).toMatch(/\d+ adopted, \d+ left for pulumi up/);
      }
      // A plain up (no refresh: the adopted resources carry their real outputs) creates the rest.
      await t.stack.up();
      expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
      const ids = await stateIds(t);
      expect(ids.size).toBe(3 * per);
      expect(ids).toEqual(await heldUids(t));
      expect(pendingCreates(await t.stack.exportState())).toEqual([]);
      await t.stack.preview({ args: ["--expect-no-changes"] });
      // With no lock held, the start is the end of the last update in the backend's history.
      const [last] = await t.stack.automation.history(1);
      const again = await recoverStack(t.stack);
      expect(again.stdout).toContain(
        `interrupted run began at ${last?.endTime?.toISOString()} (the end of the last update: no lock is held)`,
      );
    });
  });

  // What depends on the backend is where the run's start comes from (the lock): the 2.7 s case below
  // proves it on both; the hour-early case, the 30 s clock offset and the CLI's own refusal are the
  // same on any backend and run on files only, to keep npm test short.
  if (backend === "file")
    describe("pulumi-irv recover when a pending create's name was taken before the run began", () => {
      let offsetMs = 0;
      const t = useOrgTreeStack(
        { groups: 1, identities: 0, bindings: 0, prefix: "ambiguous" },
        { clock: () => Date.now() + offsetMs },
        backend,
        { checkpoints: true },
      );

      it("refuses, naming the resource and the uid, and changes nothing", async () => {
        // Someone else's group with the program's name and fields, made an hour before the run.
        offsetMs = -3_600_000;
        const early = await t.irv.admin.groups.create(t.irv.emulator.orgUid, {
          name: "ambiguous-g-000",
          description: "group 0",
        });
        offsetMs = 0;
        // The run's create of that name is in flight (refused by the service) when the kill comes.
        await killUpAfter(t, 1);
        const pending = pendingCreates(await t.stack.exportState());
        expect(pending).toHaveLength(1);
        const urn = pending[0] as string;
        expect(urn).toMatch(/::pulumi-nodejs:dynamic\/irv:Group::ambiguous-g-000$/);

        const r = await recoverStack(t.stack, ["--apply"]);
        expect(r.exitCode).toBe(1);
        expect(r.stderr).toContain(urn);
        expect(r.stderr).toContain(
          `${early.uid} has its name but it was created at ${early.createTime}, before the interrupted run began`,
        );
        expect(r.stderr).toMatch(/nothing was changed/);
        expect(pendingCreates(await t.stack.exportState())).toEqual([urn]);
        expect(await t.stack.resources()).toEqual([]);
        await t.stack.run(["cancel", "--yes", "--stack", t.stack.stackName, "--non-interactive"]);
      });
    });

  // Regression (issue 25 item 2): recover allowed 60 s of clock skew, so someone else's group with the
  // program's name and fields, made 2.7 s before the run, was adopted (exit 0). It now measures the
  // service's clock from the Date header of its answers and allows that offset plus half a second.
  describe("pulumi-irv recover measures the service's clock instead of allowing 60 s of skew", () => {
    let offsetMs = 0;
    const t = useOrgTreeStack(
      { groups: 2, identities: 0, bindings: 0, prefix: "clocked" },
      { clock: () => Date.now() + offsetMs },
      backend,
      { checkpoints: true },
    );

    it("refuses someone else's group made 2.7 s before the run, naming it", async () => {
      offsetMs = -2_700;
      const early = await t.irv.admin.groups.create(t.irv.emulator.orgUid, {
        name: "clocked-g-000",
        description: "group 0",
      });
      offsetMs = 0;
      await killUpAfter(t, 1);
      const urn = pendingCreates(await t.stack.exportState()).find((u) => u.endsWith("::clocked-g-000"));
      expect(urn).toBeDefined();

      const r = await recoverStack(t.stack, ["--apply"]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toMatch(/the service's clock is 0\.\d\d s (ahead of|behind) ours/);
      expect(r.stderr).toContain(
        `${urn}: ambiguous: ${early.uid} has its name but it was created at ${early.createTime}, before the interrupted run began`,
      );
      expect(r.stderr).toMatch(/nothing was changed/);
      await t.stack.run(["cancel", "--yes", "--stack", t.stack.stackName, "--non-interactive"]);
      await t.irv.admin.groups.delete(early.uid);
    });

    if (backend === "file")
      it("adopts what the run made when the service's clock is 30 s behind ours", async () => {
        // The refused run above is repaired first (its group is gone now: nothing to adopt for it).
        expect((await recoverStack(t.stack, ["--apply"])).exitCode).toBe(0);
        offsetMs = -30_000;
        await killUpAfter(t, 1);
        const held = await heldUids(t);
        const r = await recoverStack(t.stack, ["--apply"]);
        expect(r.stderr).toBe("");
        expect(r.exitCode).toBe(0);
        expect(r.stdout).toMatch(/the service's clock is (29|30)\.\d\d s behind ours/);
        expect(await stateIds(t)).toEqual(held);
        expect(pendingCreates(await t.stack.exportState())).toEqual([]);
      });

    // Regression (issue 25 item 2): recover printed the Automation API's raw error
    // ("code: -2 | stdout: | stderr: Command failed with exit code 255: pulumi stack select …").
    if (backend === "file")
      it("says what failed and what to do when the pulumi CLI refuses, in one message", async () => {
        const r = await runOpsCli(["recover", "--stack", "no-such-stack", "--cwd", t.stack.projectDir], {
          env: t.stack.env,
        });
        expect(r.exitCode).toBe(1);
        expect(r.stderr.trim()).toBe(
          "pulumi-irv recover: could not select stack no-such-stack: no stack named 'no-such-stack' found. What to do: check --stack (pulumi stack ls lists the stacks) and that you are logged in to the backend that holds it (pulumi whoami -v)",
        );
      });
  });
});
