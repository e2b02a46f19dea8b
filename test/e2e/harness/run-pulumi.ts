import { spawn } from "node:child_process";
import path from "node:path";

/** What one `pulumi` invocation did. */
export interface CommandResult {
  /** Arguments after `pulumi`, with values given to `--secret` replaced by `[secret]`. */
  args: string[];
  /** Exit status; a process killed by a signal (e.g. the timeout) reports -1. */
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
  /** Kill the command after this many milliseconds. Default 5 minutes. */
  timeoutMs?: number;
  /** Return the result on a non-zero exit instead of throwing {@link PulumiCommandError}. */
  allowFailure?: boolean;
}

/** Hides the values of `--secret k=v` pairs and of `config set --secret k v` in logged arguments. */
function redact(args: string[]): string[] {
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
 * Runs `<binDir>/pulumi args…` and collects its output.
 * @example
 * const r = await runPulumi(binDir, ["version"], { cwd: process.cwd(), env });
 * r.stdout; // "v3.259.0\n"
 */
export function runPulumi(binDir: string, args: string[], options: RunPulumiOptions): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(binDir, "pulumi"), args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => stdout.push(b));
    child.stderr.on("data", (b: Buffer) => stderr.push(b));
    const timer = setTimeout(() => child.kill("SIGTERM"), options.timeoutMs ?? 300_000);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const result: CommandResult = {
        args: redact(args),
        exitCode: code ?? -1,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        durationMs: Date.now() - started,
      };
      if (result.exitCode !== 0 && options.allowFailure !== true) reject(new PulumiCommandError(result));
      else resolve(result);
    });
  });
}
