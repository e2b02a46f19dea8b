import { execFile } from "node:child_process";
import { constants, setPriority } from "node:os";

/**
 * Which `pulumi` to run and where: the binary (default `pulumi` on `PATH`), the project directory it
 * runs in, and an optional signal that stops it.
 *
 * @example
 * const at: PulumiAt = { cli: "/usr/local/bin/pulumi", cwd: "/repo/infra" };
 */
export interface PulumiAt {
  cli?: string | undefined;
  cwd?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Milliseconds before the command is stopped (default: none). */
  timeoutMs?: number | undefined;
  /**
   * Run at the lowest CPU priority: for a read that runs beside a longer command the caller waits
   * for anyway (the access review's state and config beside its preview). It then takes the CPU
   * that command leaves idle instead of slowing it down: on two cores the review's two reads cost
   * its preview about 1 s of its 22 s at 3,000 resources (issue 40).
   */
  background?: boolean | undefined;
}

/**
 * What a failed `pulumi` run printed, for a caller that can say more than its first stderr line
 * (`pulumi preview --json` prints its diagnostics on stdout).
 *
 * @example
 * const why = (f: PulumiFailure) => JSON.parse(f.stdout).diagnostics[0].message;
 */
export interface PulumiFailure {
  stdout: string;
  stderr: string;
  /** The process's error when it printed nothing (ENOENT: no such binary, a signal, a timeout). */
  message: string;
}

/**
 * Runs `pulumi <args> --non-interactive` and resolves with its stdout. A failure rejects with one
 * line, `pulumi <args> failed: <cause>`: the cause is `explain`'s answer, else the first line of
 * stderr (never stdout, which may hold secrets: `config --show-secrets`). No Automation API: it is
 * a plain process, which is all these reads need, and the CLI starts without loading it.
 *
 * @example
 * const name = (await runPulumi(["stack", "--show-name"], { cwd })).trim();
 */
export function runPulumi(
  args: readonly string[],
  at: PulumiAt = {},
  explain?: (failure: PulumiFailure) => string | undefined,
): Promise<string> {
  const cli = at.cli ?? "pulumi";
  return new Promise((resolve, reject) => {
    const child = execFile(
      cli,
      [...args, "--non-interactive"],
      {
        cwd: at.cwd,
        encoding: "utf8",
        maxBuffer: 1024 * 1024 * 1024,
        signal: at.signal,
        timeout: at.timeoutMs ?? 0,
      },
      (err, stdout, stderr) => {
        if (err === null) return resolve(stdout);
        const e = err as Error & { code?: unknown };
        const message =
          e.code === "ENOENT"
            ? `${cli} was not found: install the Pulumi CLI or put it on PATH`
            : typeof e.code === "string"
              ? e.code
              : e.name === "AbortError"
                ? "stopped"
                : e.message.split("\n")[0]?.trim() || "no output";
        const cause =
          explain?.({ stdout, stderr, message }) || stderr.trim().split("\n")[0]?.trim() || message;
        reject(new Error(`pulumi ${args.join(" ")} failed: ${cause}`));
      },
    );
    if (at.background && child.pid !== undefined) {
      try {
        setPriority(child.pid, constants.priority.PRIORITY_LOW);
      } catch {
        // Already gone, or not ours to change: it runs at the usual priority, which is only slower.
      }
    }
  });
}

/**
 * The stack's state as `pulumi stack export` prints it (`{ version, deployment }`), as stored:
 * secrets stay encrypted. Works with every backend the CLI does (Pulumi Cloud, file, S3,
 * PostgreSQL…). Rejects with one line saying why it could not.
 *
 * @example
 * const { deployment } = (await exportStack("dev", { cwd })) as { deployment: unknown };
 */
export async function exportStack(stack: string, at: PulumiAt = {}): Promise<unknown> {
  return JSON.parse(await runPulumi(["stack", "export", "--stack", stack], at));
}

/**
 * The stack's config values by key (`irv:baseUrl` → its value), secrets decrypted, as `pulumi config
 * --json --show-secrets` prints them: what the provider is given. Object values are left out (their
 * JSON text is kept where the CLI gives one). Rejects with one line saying why it could not, never
 * holding a value.
 *
 * @example
 * (await stackConfig("dev", { cwd }))["irv:baseUrl"]; // "https://irv.example.com"
 */
export async function stackConfig(stack: string, at: PulumiAt = {}): Promise<Record<string, string>> {
  const out = JSON.parse(
    await runPulumi(["config", "--json", "--show-secrets", "--stack", stack], at),
  ) as Record<string, { value?: unknown }>;
  const values: Record<string, string> = {};
  for (const [key, v] of Object.entries(out)) if (typeof v.value === "string") values[key] = v.value;
  return values;
}

/**
 * The project's selected stack (`pulumi stack select`), or undefined when none is selected.
 *
 * @example
 * const stack = options.stack ?? (await selectedStack({ cwd }));
 */
export async function selectedStack(at: PulumiAt = {}): Promise<string | undefined> {
  try {
    return (await runPulumi(["stack", "--show-name"], at)).trim() || undefined;
  } catch (err) {
    if (/no stack (is )?selected|no current stack/i.test(String(err))) return undefined;
    throw err;
  }
}
