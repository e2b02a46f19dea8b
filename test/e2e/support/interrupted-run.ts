// A `pulumi` command that can be killed the way a CI runner kills a cancelled job: SIGKILL to its
// whole process group (the CLI, the language host, the program and the provider plugin), with no
// chance to clean up. And what is left to repair afterwards: the pending CREATE operations of the
// state, matched against what the service really made.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { IrvClient } from "../../../sdk/index.js";
import type { StackState, StateResource, TestStack } from "../harness/index.js";

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
 * Repairs what a kill can leave broken in a self-managed file backend: the backend (gocloud's
 * fileblob) writes each file's attributes to a `<file>.attrs` sidecar by truncating and rewriting
 * it, so a kill at that moment leaves it empty, and every later command fails with "failed to load
 * checkpoint: EOF". An empty sidecar is never valid and a missing one is fine, so the empty ones are
 * deleted. Returns the files deleted (relative to the backend directory).
 *
 * @example
 * repairFileBackend(path.join(stack.workDir, "state"));
 */
export function repairFileBackend(backendDir: string): string[] {
  const removed: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith(".attrs") && statSync(p).size === 0) {
        rmSync(p);
        removed.push(path.relative(backendDir, p));
      }
    }
  };
  walk(backendDir);
  return removed;
}

/** A CREATE the engine started but never saw finish (`pending_operations` of the state). */
export interface PendingCreate {
  urn: string;
  type: string;
  inputs: Record<string, unknown>;
}

/**
 * The pending CREATE operations of an exported state.
 *
 * @example
 * const pending = pendingCreates(await stack.exportState());
 */
export function pendingCreates(state: StackState): PendingCreate[] {
  const ops = (state.deployment.pending_operations ?? []) as {
    type: string;
    resource: { urn: string; type: string; inputs?: Record<string, unknown> };
  }[];
  return ops
    .filter((op) => op.type === "creating")
    .map((op) => ({ urn: op.resource.urn, type: op.resource.type, inputs: op.resource.inputs ?? {} }));
}

/**
 * The uid of what a pending create made, if the service made it: looked up as the provider's own
 * create does after a lost answer (by name under the parent; a binding by its identity and role).
 *
 * @example
 * const uid = await createdBy(admin, pending[0]);
 */
export async function createdBy(admin: IrvClient, op: PendingCreate): Promise<string | undefined> {
  const i = op.inputs as Record<string, string>;
  switch (op.type) {
    case "pulumi-nodejs:dynamic/irv:Group":
      return (await admin.groups.list({ childrenOf: i.parentUid, name: i.name })).items[0]?.uid;
    case "pulumi-nodejs:dynamic/irv:Identity":
      return (await admin.identities.list({ childrenOf: i.groupUid, name: i.name })).items[0]?.uid;
    case "pulumi-nodejs:dynamic/irv:RoleBinding":
      return (await admin.roleBindings.collect({ childrenOf: i.groupUid })).find(
        (b) => b.identity.uid === i.identityUid && b.role.uid === i.roleUid,
      )?.uid;
    default:
      return undefined;
  }
}

/**
 * The state with every pending create the service did make adopted as a resource (its `id` the uid,
 * its outputs its inputs until a refresh reads the real ones) unless the state already records that
 * resource, and every pending create dropped —
 * what `pulumi stack import` then takes. (`pulumi refresh --import-pending-creates <urn> <id>` looks
 * like the tool for this, but Pulumi CLI 3.259 drops such operations without adding the resource.)
 *
 * @example
 * writeFileSync(file, JSON.stringify(adoptPendingCreates(state, new Map([[urn, uid]]))));
 */
export function adoptPendingCreates(state: StackState, made: ReadonlyMap<string, string>): StackState {
  const ops = (state.deployment.pending_operations ?? []) as { type: string; resource: StateResource }[];
  // A later run may have created (and recorded) the resource of a pending create meanwhile: the
  // pending operation stays in the state all the same, but must not be adopted a second time.
  const recorded = new Set((state.deployment.resources ?? []).map((r) => r.urn));
  const adopted = ops.flatMap((op): StateResource[] => {
    const id = made.get(op.resource.urn);
    return op.type === "creating" && id !== undefined && !recorded.has(op.resource.urn)
      ? [{ ...op.resource, id, outputs: { ...op.resource.inputs } }]
      : [];
  });
  return {
    ...state,
    deployment: {
      ...state.deployment,
      resources: [...(state.deployment.resources ?? []), ...adopted],
      pending_operations: ops.filter((op) => op.type !== "creating"),
    },
  };
}
