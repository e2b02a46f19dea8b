// A `pulumi` command that can be killed the way a CI runner kills a cancelled job: SIGKILL to its
// whole process group (the CLI, the language host, the program and the provider plugin), with no
// chance to clean up. The repair itself is the product's `pulumi-irv recover` (provider/cli).
import type { ChildProcess } from "node:child_process";
import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { StackState, TestStack } from "../harness/index.js";

/** A running `pulumi` command in its own process group. */
export interface KillableRun {
  /** Resolves with the exit code (null when killed) once the CLI exits. */
  exited: Promise<number | null>;
  /**
   * SIGKILL to the CLI (its process group). Its plugins run in process groups of their own and
   * outlive it, finishing the calls they have in flight; after `settleMs` they are SIGKILLed too.
   * Resolves once every process of the tree is gone (or `waitMs` later).
   */
  killCli(options?: { settleMs?: number; waitMs?: number }): Promise<void>;
  /** What the CLI printed so far. */
  output(): string;
}

/** pid → [ppid, pgid] of every process (`ps`, so Linux and macOS alike). */
function processTable(): Map<number, [number, number]> {
  const table = new Map<number, [number, number]>();
  for (const line of execFileSync("ps", ["-A", "-o", "pid=,ppid=,pgid="], { encoding: "utf8" }).split("\n")) {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    if (pid !== undefined && ppid !== undefined && pgid !== undefined && !Number.isNaN(pid))
      table.set(pid, [ppid, pgid]);
  }
  return table;
}

/** `root` and its descendants, with their process groups. */
function processTree(root: number): { pids: Set<number>; groups: Set<number> } {
  const table = processTable();
  const pids = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, [ppid]] of table)
      if (!pids.has(pid) && pids.has(ppid)) {
        pids.add(pid);
        grew = true;
      }
  }
  const groups = new Set([...pids].map((p) => table.get(p)?.[1] ?? p));
  return { pids, groups };
}

const signal = (target: number, sig: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(target, sig);
    return true;
  } catch {
    return false;
  }
};

/**
 * Starts `pulumi <args>` for a stack in a new process group, to be killed with
 * {@link KillableRun.killCli}. The CLI starts its plugins (language host, provider) in process groups
 * of their own, so a SIGKILL to the CLI alone leaves them running: they finish what they were doing
 * (a create whose answer then reaches no one) and would linger; killCli cleans them up afterwards.
 *
 * @example
 * const run = startKillable(stack, ["up", "--yes", "--skip-preview", "--stack", stack.stackName]);
 * await run.killCli();
 */
export function startKillable(stack: TestStack, args: string[]): KillableRun {
  const child: ChildProcess = spawn(path.join(stack.binDir, "pulumi"), args, {
    cwd: stack.projectDir,
    env: stack.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: Buffer[] = [];
  child.stdout?.on("data", (b: Buffer) => chunks.push(b));
  child.stderr?.on("data", (b: Buffer) => chunks.push(b));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const pgid = child.pid as number;
  return {
    exited,
    output: () => Buffer.concat(chunks).toString("utf8"),
    async killCli({ settleMs = 1000, waitMs = 5000 } = {}) {
      const tree = processTree(pgid);
      signal(-pgid, "SIGKILL");
      await exited;
      await sleep(settleMs);
      for (const g of tree.groups) signal(-g, "SIGKILL");
      for (const p of tree.pids) signal(p, "SIGKILL");
      const deadline = Date.now() + waitMs;
      while ([...tree.pids].some((p) => signal(p, 0)) && Date.now() < deadline) await sleep(50);
    },
  };
}

/**
 * The urns of the pending CREATE operations of an exported state.
 *
 * @example
 * expect(pendingCreates(await stack.exportState())).toEqual([]);
 */
export function pendingCreates(state: StackState): string[] {
  const ops = (state.deployment.pending_operations ?? []) as { type: string; resource: { urn: string } }[];
  return ops.filter((op) => op.type === "creating").map((op) => op.resource.urn);
}

/** The emulator routes of the org tree's creates (groups, identities, role bindings). */
const CREATE_ROUTES = ["POST /iam/v2/groups/*", "POST /iam/v2/identities/*", "POST /iam/v2/roleBindings/*"];

/**
 * How many creates of the org tree the emulator received since its stats were last reset.
 *
 * @example
 * while (createsReceived(t.irv.emulator) < 15) await sleep(20);
 */
export function createsReceived(emulator: { stats(): { requests: Record<string, number> } }): number {
  const requests = emulator.stats().requests;
  return CREATE_ROUTES.reduce((n, route) => n + (requests[route] ?? 0), 0);
}
