// A group that still holds something the stack does not manage cannot be deleted: destroy must
// fail with a message that names the blocking child and says what to do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { seedRepo, startTestEmulator } from "../support/irv-emulator.js";

const SPEC = {
  groups: [
    { key: "platform", parent: "org" },
    { key: "team-a", parent: "platform" },
  ],
};

describe("destroying a group that holds an unmanaged repo", () => {
  let irv: TestEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    irv = await startTestEmulator();
    // Give up quickly once the blocking children stop changing (default 15 s).
    stack = await createStack({
      program: fixtureDir("org-program"),
      config: { ...irv.config, spec: JSON.stringify(SPEC) },
      env: { IRV_DELETE_STALL_SECONDS: "2" },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("fails with the ordering message naming the repo and what to do", async () => {
    const { outputs } = await stack.up();
    const teamA = (outputs as { groupUids: Record<string, string> }).groupUids["team-a"] as string;
    const repo = await seedRepo(irv, teamA, "app");
    const result = await stack.destroy({ allowFailure: true });
    expect(result.exitCode).not.toBe(0);
    const text = result.stdout + result.stderr;
    expect(text).toContain(`group "team-a" (uid ${teamA}) cannot be deleted`);
    expect(text).toContain(`repo "app" (uid ${repo.uid})`);
    expect(text).toContain("Delete or move them first");
    // Nothing above the blocked group was deleted either: the engine stops at the failure.
    expect(await irv.admin.groups.find(teamA)).toBeDefined();
    // What a user does when the repo must stay: stop managing the groups instead of deleting them.
    await stack.run(["state", "delete", "--all", "--yes", "--stack", stack.stackName]);
    expect(await stack.resources()).toEqual([]);
  });
});
