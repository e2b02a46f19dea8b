import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

/** The emulator's ready line (`{"baseUrl", "authUrl", "issuerUrl", "orgUid", "adminToken"}`). */
export interface ReadyLine {
  baseUrl: string;
  authUrl: string;
  issuerUrl: string;
  orgUid: string;
  adminToken: string;
}

/** An emulator process started from an installed `irv-emulator` bin. */
export interface InstalledEmulator extends ReadyLine {
  /** SIGTERM, then the exit code (the CLI closes cleanly and exits 0). */
  stop(): Promise<number | null>;
}

/**
 * Starts `node_modules/.bin/irv-emulator --port 0` of an installed project and waits for its ready
 * line: the bin a user adds as a devDependency, not the repository's build.
 *
 * @example
 * const emu = await startInstalledEmulator(projectDir);
 * await emu.stop();
 */
export function startInstalledEmulator(projectDir: string, timeoutMs = 60_000): Promise<InstalledEmulator> {
  const bin = path.join(projectDir, "node_modules", ".bin", "irv-emulator");
  const child: ChildProcess = spawn(bin, ["--host", "127.0.0.1", "--port", "0"], {
    cwd: projectDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${bin} printed no ready line in ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${bin} exited with ${code} before its ready line; stderr: ${stderr}`));
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once("line", (line) => {
      clearTimeout(timer);
      const ready = JSON.parse(line) as ReadyLine;
      resolve({
        ...ready,
        stop: async () => {
          child.kill("SIGTERM");
          return exited;
        },
      });
    });
  });
}
