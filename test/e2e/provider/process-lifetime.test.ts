// Issue 25 item 5: dynamic-provider processes sometimes outlived the command that started them
// (reparented to pid 1). After a command ends, no provider process of its program may remain.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { fixtureDir } from "../harness/index.js";
import { useOrgTreeStack } from "../support/org-tree.js";

/**
 * Pids of dynamic-provider processes running in `dir` for the stack whose PULUMI_HOME is `home`:
 * other test files, running beside this one, start providers in the same fixture directory.
 */
function providersIn(dir: string, home: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (
        cmdline.includes("dynamic-provider") &&
        readlinkSync(`/proc/${entry}/cwd`) === dir &&
        readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`PULUMI_HOME=${home}`)
      )
        pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** The provider processes still there once `tries` looks 100 ms apart have not seen them all go. */
async function remaining(dir: string, home: string, tries = 30): Promise<number[]> {
  let pids = providersIn(dir, home);
  for (let i = 0; i < tries && pids.length > 0; i++) {
    await sleep(100);
    pids = providersIn(dir, home);
  }
  return pids;
}

describe.runIf(process.platform === "linux")("dynamic-provider processes", () => {
  const t = useOrgTreeStack({ groups: 6, identities: 3, bindings: 3, prefix: "lifetime" });

  it("are all gone when up, preview, refresh and destroy have ended", async () => {
    // The engine runs the program, and its provider plugins, in the program's own directory.
    const dir = realpathSync(fixtureDir("org-tree-program"));
    const home = t.stack.env.PULUMI_HOME ?? "";
    // Not vacuous: while up runs, its provider process is found where the others are looked for.
    let ended = false;
    let seen = 0;
    const up = t.stack.up().finally(() => {
      ended = true;
    });
    while (!ended) {
      seen = Math.max(seen, providersIn(dir, home).length);
      await sleep(50);
    }
    await up;
    expect(seen).toBeGreaterThan(0);
    expect(await remaining(dir, home)).toEqual([]);
    await t.stack.preview();
    expect(await remaining(dir, home)).toEqual([]);
    await t.stack.refresh();
    expect(await remaining(dir, home)).toEqual([]);
    await t.stack.destroy();
    expect(await remaining(dir, home)).toEqual([]);
  });
});
