// The built emulator CLI as a child process: building it first when stale, running it, reading its
// ready line. Used by the CLI's own tests and by tests that need the server in another process (a
// client and a server sharing one event loop never show some network behaviour, e.g. resets).
import type { ChildProcess } from "node:child_process";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const root = join(import.meta.dirname, "../../..");
/** The built CLI: the `irv-emulator` bin of the `pulumi-irv-emulator` workspace package. */
export const cli = join(root, "emulator/dist/cli.js");

function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules") continue;
    const p = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds `pulumi-irv` (the emulator imports its sdk) and the emulator when the CLI is missing or older than the emulator's or the sdk's sources (`npm test`
 * builds first; a developer running one file alone gets a build here). True when the CLI exists.
 */
export function buildCliIfStale(): boolean {
  const stale =
    !existsSync(cli) ||
    statSync(cli).mtimeMs < Math.max(newestSource(join(root, "emulator")), newestSource(join(root, "sdk")));
  if (stale) {
    try {
      for (const project of ["tsconfig.build.json", "emulator/tsconfig.build.json"])
        execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", project], {
          cwd: root,
          stdio: "pipe",
        });
    } catch {
      // Type errors elsewhere in the package still emit JavaScript; the CLI's presence is what counts.
    }
  }
  return existsSync(cli);
}

/** A CLI child process. */
export interface CliRun {
  child: ChildProcess;
  /** The parsed ready line. */
  ready: Promise<Record<string, string>>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string[]; stderr: string }>;
}

/** Starts the CLI with `args`. */
export function runCli(args: string[]): CliRun {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const stdout: string[] = [];
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const ready = new Promise<Record<string, string>>((resolve, reject) => {
    lines.on("line", (line) => {
      stdout.push(line);
      if (stdout.length === 1) resolve(JSON.parse(line) as Record<string, string>);
    });
    child.once("exit", () => reject(new Error(`exited before ready: ${stderr}`)));
  });
  ready.catch(() => undefined);
  const exit = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string[];
    stderr: string;
  }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, ready, exit };
}
