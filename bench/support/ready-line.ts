import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * Starts `node <args>` (a server that prints one line when it listens: the emulator's ready line,
 * or a bare server's port) and resolves with the process and that line; rejects if it exits first.
 *
 * @example
 * const { child, line } = await startWithReadyLine([cli, "--port", "0"]);
 * const { baseUrl } = JSON.parse(line);
 */
export function startWithReadyLine(args: string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (line) =>
      resolve({ child, line }),
    );
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}
