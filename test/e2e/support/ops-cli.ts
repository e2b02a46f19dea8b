// The built `pulumi-irv` bin (dist/provider/cli/main.js) run as a user runs it: its own process, the
// stack's environment (the CLI on PATH, the backend, the passphrase).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestStack } from "../harness/index.js";

const MAIN = fileURLToPath(new URL("../../../dist/provider/cli/main.js", import.meta.url));

/** What one `pulumi-irv` run did. */
export interface OpsCliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `pulumi-irv <args>` and resolves with its exit code and output (never rejects on a non-zero exit).
 *
 * @example
 * const r = await runOpsCli(["recover", "--apply"], { cwd: stack.projectDir, env: stack.env });
 */
export function runOpsCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<OpsCliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { cwd: options.cwd, env: options.env ?? process.env, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : -1;
        resolve({ exitCode: code, stdout, stderr });
      },
    );
  });
}

/**
 * `pulumi-irv recover` on a test stack.
 *
 * @example
 * const r = await recoverStack(stack, ["--apply"]);
 */
export function recoverStack(stack: TestStack, extra: string[] = []): Promise<OpsCliResult> {
  return runOpsCli(["recover", "--stack", stack.stackName, "--cwd", stack.projectDir, ...extra], {
    env: stack.env,
  });
}
