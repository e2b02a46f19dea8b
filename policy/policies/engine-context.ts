import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { PulumiAt } from "pulumi-irv/config";
import { exportStack as exportStackWith, stackConfig as stackConfigWith } from "pulumi-irv/config";

/**
 * What a policy learns about the `pulumi` command that runs it: the CLI binary and the directory it
 * runs in (after `--cwd`), and the project directory found from there (the nearest `Pulumi.yaml`
 * upwards, as the CLI finds it).
 *
 * @example
 * const ctx = engineContext();
 * if (ctx.cli !== undefined) await exportStack(ctx, "dev");
 */
export interface EngineContext {
  cli?: string | undefined;
  cwd?: string | undefined;
  projectDir?: string | undefined;
}

// The parent pid of a process, from /proc/<pid>/stat (the field after the command name).
function parentOf(proc: string, pid: number): number | undefined {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The directory holding `Pulumi.yaml` (or `Pulumi.yml`) at or above `dir`.
 *
 * @example
 * projectDirOf("/repo/infra/sub"); // "/repo/infra"
 */
export function projectDirOf(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "Pulumi.yaml")) || existsSync(join(d, "Pulumi.yml"))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * Finds the `pulumi` process this policy pack runs under. The engine tells a pack neither the
 * project directory nor the stack's backend (checked on CLI 3.259: the pack runs in its own
 * directory, with the CLI's environment and no stack tags on a DIY backend), so the pack walks up
 * its parent processes (`/proc`, Linux) to the `pulumi` binary and reads its working directory.
 * Where there is no `/proc` it falls back to `PWD` and the `pulumi` on `PATH` when `PWD` holds a
 * project.
 *
 * `from` is for tests: another `/proc`, environment or process.
 *
 * @example
 * const { cli, projectDir } = engineContext();
 */
export function engineContext(
  from: { proc?: string; env?: NodeJS.ProcessEnv; pid?: number } = {},
): EngineContext {
  const { proc = "/proc", env = process.env, pid: self = process.pid } = from;
  for (let pid = parentOf(proc, self), n = 0; pid !== undefined && n < 12; pid = parentOf(proc, pid), n++) {
    try {
      const exe = readlinkSync(`${proc}/${pid}/exe`);
      if (basename(exe) !== "pulumi" && basename(exe) !== "pulumi.exe") continue;
      const cwd = readlinkSync(`${proc}/${pid}/cwd`);
      return { cli: exe, cwd, projectDir: projectDirOf(cwd) };
    } catch {}
  }
  // On Linux the walk is the answer: no `pulumi` among the parents means none runs this pack.
  if (existsSync(`${proc}/${self}/stat`)) return {};
  const pwd = env.PWD;
  const projectDir = pwd === undefined ? undefined : projectDirOf(pwd);
  return projectDir === undefined ? {} : { cli: "pulumi", cwd: pwd, projectDir };
}

/**
 * The stack and project a policy is judging, from a resource URN (`urn:pulumi:<stack>::<project>::…`).
 *
 * @example
 * stackOfUrn("urn:pulumi:dev::infra::pulumi:pulumi:Stack::infra-dev"); // { stack: "dev", project: "infra" }
 */
export function stackOfUrn(urn: string): { stack: string; project: string } | undefined {
  const m = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn);
  return m === null ? undefined : { stack: m[1] as string, project: m[2] as string };
}

// Where the CLI that runs the pack runs: its binary and directory (its environment is ours).
function pulumiOf(ctx: EngineContext): PulumiAt {
  if (ctx.cli === undefined || ctx.cwd === undefined)
    throw new Error("the pulumi command running this pack was not found");
  return { cli: ctx.cli, cwd: ctx.cwd, timeoutMs: 300_000 };
}

/**
 * The stack's current state as `pulumi stack export` prints it, read with the same CLI, directory
 * and environment as the command running the pack — so it works with every backend the CLI does
 * (Pulumi Cloud, file, S3, PostgreSQL…). Rejects with one line saying why it could not (the runner
 * `pulumi-irv access-review` uses too).
 *
 * @example
 * const state = await exportStack(engineContext(), "dev");
 */
export async function exportStack(ctx: EngineContext, stack: string): Promise<unknown> {
  return exportStackWith(stack, pulumiOf(ctx));
}

/**
 * The stack's config values by key (`irv:baseUrl` → its value), secrets decrypted, as `pulumi config
 * --json --show-secrets` prints them through the CLI running the pack: what the provider is given.
 * Rejects with one line saying why it could not, never holding a value.
 *
 * @example
 * const config = await stackConfig(engineContext(), "dev");
 * config["irv:baseUrl"]; // "https://irv.example.com"
 */
export async function stackConfig(ctx: EngineContext, stack: string): Promise<Record<string, string>> {
  return stackConfigWith(stack, pulumiOf(ctx));
}
