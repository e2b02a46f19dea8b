import path from "node:path";
import { PulumiCommand } from "@pulumi/pulumi/automation/index.js";
import { z } from "zod";
import { withDeadline } from "./deadline.js";

declare module "@pulumi/pulumi/automation/cmd.js" {
  interface PulumiCommand {
    /**
     * Runs `pulumi <args>` (adding `--non-interactive`) with `additionalEnv` over `process.env`, the
     * CLI's directory first on PATH; rejects with a `CommandError` on a non-zero exit; `signal` sends
     * SIGINT. What every `Workspace`/`Stack` method runs, marked `@internal` in 3.270 and so missing
     * from its declarations: the harness uses it only for commands the API has no method for.
     */
    run(
      args: string[],
      cwd: string,
      additionalEnv: Record<string, string>,
      onOutput?: (data: string) => void,
      onError?: (data: string) => void,
      signal?: AbortSignal,
    ): Promise<{ stdout: string; stderr: string; code: number }>;
  }
}

/** What one `pulumi` invocation did. */
export interface CommandResult {
  /**
   * For {@link runPulumi}, the arguments after `pulumi`; for an operation, the operation and the
   * caller's extra flags (the Automation API adds its own). Values given to `--secret` read `[secret]`.
   */
  args: string[];
  /** Exit status; a process killed by a signal reports -1. */
  exitCode: number;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** Thrown when a `pulumi` command exits non-zero and the caller did not allow failure. */
export class PulumiCommandError extends Error {
  readonly result: CommandResult;

  constructor(result: CommandResult) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-60).join("\n");
    super(`\`pulumi ${result.args.join(" ")}\` exited with ${result.exitCode}:\n${output}`);
    this.name = "PulumiCommandError";
    this.result = result;
  }
}

/** Options for {@link runPulumi}. */
export interface RunPulumiOptions {
  cwd: string;
  env: Record<string, string>;
  /** Interrupt the command after this many milliseconds. Default 5 minutes. */
  timeoutMs?: number;
  /** Return the result on a non-zero exit instead of throwing {@link PulumiCommandError}. */
  allowFailure?: boolean;
}

const commands = new Map<string, Promise<PulumiCommand>>();

/**
 * The Automation API's handle on the CLI in `binDir` (`PulumiCommand.get` with `root` the directory above
 * it), made once per directory: each `get` runs `pulumi version`.
 * @example
 * const ws = await LocalWorkspace.create({ workDir, pulumiCommand: await pulumiCommand(binDir) });
 */
export function pulumiCommand(binDir: string): Promise<PulumiCommand> {
  let command = commands.get(binDir);
  if (command === undefined) {
    if (path.basename(binDir) !== "bin") {
      // Every directory scripts/pulumi-cli.ts finds or builds is one; only IRV_PULUMI_BIN can differ.
      throw new Error(
        `The Automation API runs <root>/bin/pulumi, so the CLI's directory must be called bin: ${binDir} is not (IRV_PULUMI_BIN?).`,
      );
    }
    // The CLI is this project's own build (or one checked by scripts/pulumi-cli.ts), possibly older
    // than the SDK: the Automation API's minimum-version check does not apply.
    command = PulumiCommand.get({ root: path.dirname(binDir), skipVersionCheck: true });
    commands.set(binDir, command);
    command.catch(() => commands.delete(binDir));
  }
  return command;
}

/**
 * How a failed Automation API command ended. `CommandError` keeps it private: execa's error (exit code,
 * or the signal that killed the process) in `commandResult.err`, or a code of its own when the process
 * ran with execa told not to reject.
 */
const commandFailure = z.object({
  commandResult: z.object({
    code: z.number().optional(),
    err: z.object({ exitCode: z.number().optional(), signal: z.string().optional() }).optional(),
  }),
});

/**
 * The exit code carried by an error of an Automation API command (-1 when killed by a signal), or
 * undefined when `err` is no such error or the process never ran (e.g. the CLI is missing).
 * @example
 * try { await stack.up(); } catch (err) { exitCodeOf(err); } // 255
 */
export function exitCodeOf(err: unknown): number | undefined {
  const parsed = commandFailure.safeParse(err);
  if (!parsed.success) return undefined;
  const { code, err: execaError } = parsed.data.commandResult;
  if (execaError === undefined) return code !== undefined && code > 0 ? code : undefined;
  if (execaError.exitCode !== undefined) return execaError.exitCode;
  return execaError.signal !== undefined ? -1 : undefined;
}

/**
 * Collects what a command prints, for results and timeout messages.
 * @example
 * const out = collectOutput(); await stack.up({ onOutput: out.onOutput, onError: out.onError });
 */
export function collectOutput() {
  let stdout = "";
  let stderr = "";
  return {
    onOutput: (data: string) => {
      stdout += data;
    },
    onError: (data: string) => {
      stderr += data;
    },
    stdout: () => stdout,
    stderr: () => stderr,
    all: () => `${stdout}\n${stderr}`,
  };
}

/** Hides the values of `--secret k=v` pairs and of `config set --secret k v` in logged arguments. */
export function redact(args: readonly string[]): string[] {
  const out = [...args];
  const isConfigSetSecret = args[0] === "config" && args[1] === "set" && args.includes("--secret");
  for (let i = 0; i < out.length; i++) {
    if (out[i] === "--secret" && i + 1 < out.length && out[i + 1]?.includes("=")) {
      const kv = out[i + 1] ?? "";
      out[i + 1] = `${kv.slice(0, kv.indexOf("="))}=[secret]`;
    }
  }
  if (isConfigSetSecret) {
    const last = out.length - 1;
    if (last > 0 && out[last - 1] === "--") out[last] = "[secret]";
  }
  return out;
}

/**
 * Runs `<binDir>/pulumi args…` through the Automation API's `PulumiCommand`, for what the API has no
 * method for (`state delete`, `stack export` with secrets left encrypted, …).
 * @example
 * const r = await runPulumi(binDir, ["version"], { cwd: process.cwd(), env });
 * r.stdout; // "v3.259.0\n"
 */
export async function runPulumi(
  binDir: string,
  args: string[],
  options: RunPulumiOptions,
): Promise<CommandResult> {
  const command = await pulumiCommand(binDir);
  const output = collectOutput();
  const started = Date.now();
  const shown = redact(args);
  const exitCode = await withDeadline(
    `\`pulumi ${shown.join(" ")}\``,
    options.timeoutMs ?? 300_000,
    output.all,
    (signal) =>
      command
        // `run` appends to the array it is given.
        .run([...args], options.cwd, options.env, output.onOutput, output.onError, signal)
        .then(() => 0)
        .catch((err: unknown) => {
          const code = exitCodeOf(err);
          if (code === undefined) throw err;
          return code;
        }),
  );
  const result: CommandResult = {
    args: shown,
    exitCode,
    stdout: output.stdout(),
    stderr: output.stderr(),
    durationMs: Date.now() - started,
  };
  if (exitCode !== 0 && options.allowFailure !== true) throw new PulumiCommandError(result);
  return result;
}
