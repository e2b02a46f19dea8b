#!/usr/bin/env node
// Finds or builds the Pulumi CLI this project's e2e tests, demo and examples run with, and prints the
// `bin/` directory that holds `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs`.
//
//   node scripts/pulumi-cli.ts            # prints the bin dir (progress goes to stderr)
//   node scripts/pulumi-cli.ts --json     # prints {"binDir","root","version","source"}
//   node scripts/pulumi-cli.ts --yaml     # prints the dir of pulumi-language-yaml (built once from Go modules)
//
// Run with Node >= 22.18 (type stripping; the repository's `node` devDependency is Node 24). Imports only
// Node built-ins so that plain `node` can run it. See docs/toolchain.md for the why.

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The Pulumi CLI version built from Go modules when no suitable CLI is installed. */
export const PULUMI_VERSION = "3.259.0";

/** Oldest installed CLI accepted from PATH: since 3.221 policy packs run through the language host. */
export const MIN_PULUMI_VERSION = "3.221.0";

/** Go module paths and the build recipe (see docs/toolchain.md). */
const PKG_MODULE = "github.com/pulumi/pulumi/pkg/v3";
const SDK_MODULE = "github.com/pulumi/pulumi/sdk/v3";
// pkg/go.mod itself carries this replace; a module requiring pkg/v3 must repeat it or the build fails.
const CLIPBOARD_REPLACE =
  "github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e";

const LANGUAGE_HOST = "pulumi-language-nodejs";
const DYNAMIC_PROVIDER = "pulumi-resource-pulumi-nodejs";
const HOST_SOURCE = fileURLToPath(new URL("./pulumi-language-nodejs.mjs", import.meta.url));
const PRELOAD_SOURCE = fileURLToPath(new URL("./dynamic-provider-preload.cjs", import.meta.url));
const LAUNCHER_SOURCE = fileURLToPath(new URL("./dynamic-provider-launcher.cjs", import.meta.url));

/**
 * The go.mod lines of a module built against Pulumi's `pkg/v3` (the CLI, our SDK generator), at the
 * CLI's version.
 * @example
 * goBuild(entry, { goMod: PULUMI_PKG_GO_MOD, … }, env, log);
 */
export const PULUMI_PKG_GO_MOD = [
  `require (\n\t${PKG_MODULE} v${PULUMI_VERSION}\n\t${SDK_MODULE} v${PULUMI_VERSION}\n)`,
  "",
  `replace ${CLIPBOARD_REPLACE}`,
].join("\n");

/** Where a usable CLI came from. */
export type PulumiCliSource = "env" | "path" | "cache" | "build";

/** A directory with the three executables the engine needs, side by side. */
export interface PulumiCli {
  /** Directory holding `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs`. */
  binDir: string;
  /** The directory above `binDir`: what `PulumiCommand.get({ root })` of the Automation API expects. */
  root: string;
  /** `pulumi version` without the leading `v`, e.g. `3.259.0`. */
  version: string;
  source: PulumiCliSource;
}

/** Options for {@link ensurePulumiCli}. */
export interface EnsurePulumiCliOptions {
  /** Progress sink (one line per call). Defaults to stderr. */
  log?: (line: string) => void;
  /** Environment to read PATH, IRV_PULUMI_BIN and XDG_CACHE_HOME from. Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Cache directory shared by every clone on the machine: `${XDG_CACHE_HOME:-~/.cache}/pulumi-irv`.
 * @example
 * cacheRoot(); // "/home/me/.cache/pulumi-irv"
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CACHE_HOME && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : path.join(homedir(), ".cache");
  return path.join(base, "pulumi-irv");
}

/**
 * Where V8's code cache on disk lives for every Node process of a test or bench run: `NODE_COMPILE_CACHE`
 * when set, else beside the Pulumi CLI's cache, outside the repo and shared by every clone. Loading
 * @pulumi/pulumi costs about 40 % less CPU once cached.
 *
 * @example
 * process.env.NODE_COMPILE_CACHE ??= compileCacheDir(); // "/home/me/.cache/pulumi-irv/node-compile-cache"
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.NODE_COMPILE_CACHE || path.join(cacheRoot(env), "node-compile-cache");
}

/**
 * Returns a bin directory with a usable Pulumi CLI, building it from Go modules if needed.
 *
 * Order: `IRV_PULUMI_BIN` (used as is) → a `pulumi` >= {@link MIN_PULUMI_VERSION} on PATH (completed with
 * our language host / dynamic-provider shim when its install lacks them) → the cached build → a fresh
 * build with the machine's `go` (minutes). Throws one actionable message when none is possible.
 * @example
 * const { binDir } = await ensurePulumiCli();
 * spawnSync(path.join(binDir, "pulumi"), ["version"]);
 */
export async function ensurePulumiCli(options: EnsurePulumiCliOptions = {}): Promise<PulumiCli> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  const forced = env.IRV_PULUMI_BIN;
  if (forced !== undefined && forced !== "") {
    const binDir = path.resolve(forced);
    const version = cliVersion(path.join(binDir, "pulumi"));
    if (version === undefined) {
      throw new Error(`IRV_PULUMI_BIN=${forced}: no runnable 'pulumi' in that directory.`);
    }
    return { binDir, root: path.dirname(binDir), version, source: "env" };
  }

  const onPath = findOnPath("pulumi", env.PATH ?? "");
  if (onPath !== undefined) {
    const version = cliVersion(onPath);
    if (version !== undefined && compareVersions(version, MIN_PULUMI_VERSION) >= 0) {
      const binDir = completeInstalledCli(onPath, cacheRoot(env));
      return { binDir, root: path.dirname(binDir), version, source: "path" };
    }
    log(
      `pulumi-irv: ignoring ${onPath} (version ${version ?? "unknown"}; need >= ${MIN_PULUMI_VERSION} for policy packs).`,
    );
  }

  const entry = path.join(cacheRoot(env), `pulumi-v${PULUMI_VERSION}`);
  let source: PulumiCliSource = "cache";
  if (cliVersion(path.join(entry, "bin", "pulumi")) !== PULUMI_VERSION) {
    source = "build";
    await withLock(`${entry}.lock`, log, async () => {
      // Another process may have finished the build while we waited for the lock.
      if (cliVersion(path.join(entry, "bin", "pulumi")) !== PULUMI_VERSION) {
        await buildCli(entry, env, log);
      }
    });
  }
  installShims(entry, { languageHost: true, dynamicProvider: true });
  const binDir = path.join(entry, "bin");
  return { binDir, root: entry, version: PULUMI_VERSION, source };
}

/** The pulumi-yaml release whose language host (`pulumi-language-yaml`) runs the YAML programs. */
export const PULUMI_YAML_VERSION = "1.25.0";
const YAML_MODULE = "github.com/pulumi/pulumi-yaml";
const YAML_HOST = "pulumi-language-yaml";

/**
 * Finds or builds Pulumi's YAML language host and returns the directory holding it (to put on the
 * engine's PATH): beside the CLI in `cliBinDir` (an installed Pulumi ships it), on PATH, the cached
 * build `…/pulumi-irv/pulumi-language-yaml-v1.25.0/bin`, or a fresh build of the Go module
 * `github.com/pulumi/pulumi-yaml` (a minute or two with warm Go caches), made like the CLI's.
 * @example
 * const yamlBin = await ensureYamlLanguageHost({ cliBinDir: binDir });
 */
export async function ensureYamlLanguageHost(
  options: EnsurePulumiCliOptions & { cliBinDir?: string } = {},
): Promise<string> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (options.cliBinDir !== undefined && isExecutable(path.join(options.cliBinDir, YAML_HOST)))
    return options.cliBinDir;
  const onPath = findOnPath(YAML_HOST, env.PATH ?? "");
  if (onPath !== undefined) return path.dirname(onPath);
  const entry = path.join(cacheRoot(env), `${YAML_HOST}-v${PULUMI_YAML_VERSION}`);
  const exe = path.join(entry, "bin", YAML_HOST);
  if (!isExecutable(exe))
    await withLock(`${entry}.lock`, log, async () => {
      if (isExecutable(exe)) return;
      await goBuild(
        entry,
        {
          what: `${YAML_HOST} v${PULUMI_YAML_VERSION}`,
          // pulumi-yaml's go.mod has no replaces: its own requirements resolve as they are.
          goMod: `require ${YAML_MODULE} v${PULUMI_YAML_VERSION}`,
          get: `${YAML_MODULE}/cmd/${YAML_HOST}@v${PULUMI_YAML_VERSION}`,
          pkg: `${YAML_MODULE}/cmd/${YAML_HOST}`,
          ldflags: `-X ${YAML_MODULE}/pkg/version.Version=v${PULUMI_YAML_VERSION}`,
          binary: YAML_HOST,
          check: (built) => (isExecutable(built) ? undefined : `pulumi-irv: go build made no ${built}`),
        },
        env,
        log,
      );
    });
  return path.join(entry, "bin");
}

/** Options for {@link pulumiEnv}. */
export interface PulumiEnvOptions {
  /** Bin dir from {@link ensurePulumiCli}; put first on PATH so the engine finds our plugins. */
  binDir: string;
  /** Directory of the local file backend (`PULUMI_BACKEND_URL=file://…`). */
  stateDir: string;
  /** Isolated `PULUMI_HOME` (plugin cache, workspace settings). */
  homeDir: string;
  /** Passphrase of the passphrase secrets provider. Defaults to a fixed test value. */
  passphrase?: string;
  /** Base environment. Defaults to `process.env`. */
  baseEnv?: NodeJS.ProcessEnv;
}

/**
 * Environment for running the CLI fully offline: local file backend, isolated PULUMI_HOME, no update
 * check, no plugin downloads, a passphrase for secrets, and PATH = bin dir, then the directory of the
 * Node running this code (so programs and plugins run on the same Node as the caller), then the rest.
 * @example
 * const env = pulumiEnv({ binDir, stateDir: "/tmp/s", homeDir: "/tmp/h" });
 * spawnSync("pulumi", ["stack", "ls"], { env });
 */
export function pulumiEnv(options: PulumiEnvOptions): Record<string, string> {
  const base = options.baseEnv ?? process.env;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  // Settings that would point the CLI at a real account or a second passphrase source.
  for (const k of ["PULUMI_ACCESS_TOKEN", "PULUMI_CONFIG_PASSPHRASE_FILE", "PULUMI_IGNORE_AMBIENT_PLUGINS"]) {
    delete env[k];
  }
  const nodeDir = path.dirname(process.execPath);
  return {
    ...env,
    PATH: [options.binDir, nodeDir, base.PATH ?? ""].filter((p) => p !== "").join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${options.stateDir}`,
    PULUMI_HOME: options.homeDir,
    PULUMI_CONFIG_PASSPHRASE: options.passphrase ?? "pulumi-irv-test-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    // Every operation starts Node two or three times (the program, the dynamic provider, a policy
    // pack), each loading @pulumi/pulumi: V8's code cache on disk cuts that load's CPU by about 40 %.
    NODE_COMPILE_CACHE: compileCacheDir(base),
  };
}

/** `pulumi version` of an executable without the `v`, or undefined when it does not run. */
function cliVersion(exe: string): string | undefined {
  if (!existsSync(exe)) return undefined;
  const r = spawnSync(exe, ["version"], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  if (r.status !== 0) return undefined;
  const m = /v?(\d+\.\d+\.\d+)/.exec(r.stdout);
  return m?.[1];
}

/** Compares `a.b.c` versions numerically (pre-release suffixes ignored). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map((n) => Number.parseInt(n, 10));
  const pb = b.split(".").map((n) => Number.parseInt(n, 10));
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function isExecutable(file: string): boolean {
  try {
    const st = statSync(file);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function findOnPath(name: string, pathEnv: string): string | undefined {
  for (const dir of pathEnv.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A normal Pulumi install ships its own language host and dynamic-provider script next to `pulumi`:
 * use that directory. Otherwise build a directory in the cache with a hard link (or copy) of that
 * `pulumi` plus ours. A link or copy rather than a symlink: the engine looks for "bundled" plugins next
 * to the resolved executable and warns on every run when PATH and that location disagree.
 */
function completeInstalledCli(pulumiPath: string, cache: string): string {
  const real = realpathSync(pulumiPath);
  const realDir = path.dirname(real);
  const pathDir = path.dirname(pulumiPath);
  const has = (name: string) => isExecutable(path.join(realDir, name));
  if (has(LANGUAGE_HOST) && has(DYNAMIC_PROVIDER)) return pathDir;

  const st = statSync(real);
  const key = createHash("sha256").update(`${real}\0${st.size}\0${st.mtimeMs}`).digest("hex").slice(0, 12);
  const entry = path.join(cache, `installed-${key}`);
  const bin = path.join(entry, "bin");
  mkdirSync(bin, { recursive: true });
  linkFresh(real, path.join(bin, "pulumi"));
  installShims(entry, { languageHost: !has(LANGUAGE_HOST), dynamicProvider: !has(DYNAMIC_PROVIDER) });
  if (has(LANGUAGE_HOST)) linkFresh(path.join(realDir, LANGUAGE_HOST), path.join(bin, LANGUAGE_HOST));
  if (has(DYNAMIC_PROVIDER))
    linkFresh(path.join(realDir, DYNAMIC_PROVIDER), path.join(bin, DYNAMIC_PROVIDER));
  return bin;
}

/**
 * Places a hard link (or, across file systems, a copy) of `from` at `to` unless `to` exists — or,
 * with `replace`, unless `to` already is `from`: then another file there is swapped atomically.
 * @example
 * linkFresh(builtHost, path.join(cliBinDir, "pulumi-language-go"), { replace: true });
 */
export function linkFresh(from: string, to: string, options: { replace?: boolean } = {}): void {
  if (existsSync(to) && (!options.replace || statSync(to).ino === statSync(from).ino)) return;
  const tmp = `${to}.${process.pid}.tmp`;
  try {
    linkSync(from, tmp);
  } catch {
    copyFileSync(from, tmp);
    chmodSync(tmp, 0o755);
  }
  renameSync(tmp, to);
}

/** Single-quotes a string for /bin/sh. */
function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Writes a file through a temporary name and a rename, so readers never see half a file. */
function writeAtomic(file: string, content: string, mode: number): void {
  if (existsSync(file) && readFileSync(file, "utf8") === content) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, file);
}

/**
 * Installs our language host and dynamic-provider shim into `<entry>/bin`. The host's code is copied to
 * `<entry>/lib/pulumi-language-nodejs-<content hash>.mjs`, so a changed host is re-installed and a
 * cache shared by several clones never runs code from a clone's working tree. Both shims run the
 * `node` found on PATH and resolve `@pulumi/pulumi` from the directory the engine starts them in.
 */
function installShims(entry: string, which: { languageHost: boolean; dynamicProvider: boolean }): void {
  const bin = path.join(entry, "bin");
  if (which.languageHost) {
    const lib = installLib(entry, HOST_SOURCE, LANGUAGE_HOST, ".mjs");
    writeAtomic(
      path.join(bin, LANGUAGE_HOST),
      [
        "#!/bin/sh",
        "# Written by pulumi-irv scripts/pulumi-cli.ts: the Node.js language host of this project.",
        `exec node ${shQuote(lib)} "$@"`,
        "",
      ].join("\n"),
      0o755,
    );
  }
  if (which.dynamicProvider) {
    // See dynamic-provider-preload.cjs: supplies the serialized provider of an import's Read on 3.259.
    const preload = installLib(entry, PRELOAD_SOURCE, "dynamic-provider-preload", ".cjs");
    // See dynamic-provider-launcher.cjs: finds the program's dynamic-provider host and runs it in the
    // same Node process (no second Node start per provider).
    const launcher = installLib(entry, LAUNCHER_SOURCE, "dynamic-provider-launcher", ".cjs");
    writeAtomic(
      path.join(bin, DYNAMIC_PROVIDER),
      [
        "#!/bin/sh",
        "# Written by pulumi-irv scripts/pulumi-cli.ts. The engine runs this as the provider plugin of",
        "# dynamic resources, in the program directory: run that program's @pulumi/pulumi dynamic provider.",
        `exec node --require ${shQuote(preload)} ${shQuote(launcher)} "$@"`,
        "",
      ].join("\n"),
      0o755,
    );
  }
}

/**
 * Copies one of our files into `<entry>/lib/<name>-<content hash><ext>` and returns that path: a changed
 * file gets a new name, so processes still running the old copy are not disturbed.
 */
function installLib(entry: string, source: string, name: string, ext: string): string {
  const content = readFileSync(source, "utf8");
  const hash = createHash("sha256").update(content).digest("hex").slice(0, 12);
  const lib = path.join(entry, "lib", `${name}-${hash}${ext}`);
  writeAtomic(lib, content, 0o644);
  return lib;
}

const PYTHON_HOST = "pulumi-language-python";
const PYTHON_HOST_SOURCES = [`${PYTHON_HOST}.py`, `${PYTHON_HOST}-exec.py`];

/**
 * Installs our test-only Python language host into `binDir`: its two files (the gRPC host and the runner
 * it starts in the program's virtualenv) are copied to `<binDir>/../lib/pulumi-language-python-<content
 * hash>/`, and `<binDir>/pulumi-language-python` runs the host on `python`, an interpreter with the
 * `pulumi` package (for its gRPC stubs). Users run Pulumi's real host; see docs/toolchain.md ("Python").
 * @example
 * installPythonLanguageHost(binDir, "/home/me/.cache/pulumi-irv/python-0123abcd/venv/bin/python");
 */
export function installPythonLanguageHost(binDir: string, python: string): string {
  const sources = PYTHON_HOST_SOURCES.map((name) => ({
    name,
    text: readFileSync(fileURLToPath(new URL(`./${name}`, import.meta.url)), "utf8"),
  }));
  const hash = createHash("sha256");
  for (const { name, text } of sources) hash.update(`${name}\0${text}\0`);
  const lib = path.join(path.dirname(binDir), "lib", `${PYTHON_HOST}-${hash.digest("hex").slice(0, 12)}`);
  for (const { name, text } of sources) writeAtomic(path.join(lib, name), text, 0o644);
  const shim = path.join(binDir, PYTHON_HOST);
  writeAtomic(
    shim,
    [
      "#!/bin/sh",
      "# Written by pulumi-irv scripts/pulumi-cli.ts: the test-only Python language host of this project.",
      `[ -x ${shQuote(python)} ] || { echo "${PYTHON_HOST}: ${python} is gone; run node scripts/python-sdk.ts --wheelhouse" >&2; exit 1; }`,
      `exec ${shQuote(python)} -u ${shQuote(path.join(lib, PYTHON_HOST_SOURCES[0] ?? ""))} "$@"`,
      "",
    ].join("\n"),
    0o755,
  );
  return shim;
}

/**
 * Runs `fn` holding a directory lock; waits while a live process holds it, breaks a dead holder's.
 * @example
 * await withLock(`${entry}.lock`, console.error, () => goBuild(entry, spec, process.env, console.error));
 */
export async function withLock(
  lock: string,
  log: (line: string) => void,
  fn: () => Promise<void>,
): Promise<void> {
  mkdirSync(path.dirname(lock), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number.parseInt(readFileOr(path.join(lock, "pid"), ""), 10);
      if (!Number.isNaN(pid) && !processAlive(pid)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!announced) {
        log(`pulumi-irv: another process (pid ${Number.isNaN(pid) ? "?" : pid}) holds ${lock}; waiting…`);
        announced = true;
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function readFileOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

const INSTALL_HELP = [
  "pulumi-irv: no Pulumi CLI available, and no Go toolchain to build one.",
  `Install Pulumi >= ${MIN_PULUMI_VERSION} and put it on PATH (https://www.pulumi.com/docs/iac/download-install/,`,
  "e.g. `curl -fsSL https://get.pulumi.com | sh` or `brew install pulumi`), or install Go >= 1.25 so this",
  "script can build it, or set IRV_PULUMI_BIN to a directory holding `pulumi`.",
].join("\n");

/** One executable built from a Go module (the CLI, the YAML language host). */
/**
 * What {@link goBuild} builds: a Go module's command, or a tool of ours from its sources.
 * @example
 * const spec: GoBuildSpec = { what: "x", goMod: "require …", sources: { "main.go": src }, pkg: ".", ldflags: "", binary: "x", check: () => undefined };
 */
export interface GoBuildSpec {
  /** For messages, e.g. `Pulumi CLI v3.259.0`. */
  what: string;
  /** Requirements and replaces of the throw-away module that builds it. */
  goMod: string;
  /** The package and version `go get` resolves, e.g. `…/cmd/pulumi@v3.259.0`; none for our own sources. */
  get?: string;
  /** Go files written into the module beside go.mod (a tool of ours); `pkg` is then `.`. */
  sources?: Record<string, string>;
  /** The package `go build` compiles, and its `-ldflags`. */
  pkg: string;
  ldflags: string;
  /** The executable's name in `<entry>/bin`. */
  binary: string;
  /** Undefined when the built executable is right, else why not. */
  check(exe: string): string | undefined;
}

/**
 * Builds the CLI from the Go module proxy into a temporary directory next to the cache entry, then
 * renames it into place: a killed build leaves only a `.build-*` directory, never a half cache entry.
 */
async function buildCli(entry: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  await goBuild(
    entry,
    {
      what: `Pulumi CLI v${PULUMI_VERSION}`,
      goMod: PULUMI_PKG_GO_MOD,
      get: `${PKG_MODULE}/cmd/pulumi@v${PULUMI_VERSION}`,
      pkg: `${PKG_MODULE}/cmd/pulumi`,
      ldflags: `-X ${SDK_MODULE}/go/common/version.Version=v${PULUMI_VERSION}`,
      binary: "pulumi",
      check: (exe) => {
        const built = cliVersion(exe);
        return built === PULUMI_VERSION
          ? undefined
          : `pulumi-irv: the freshly built CLI reports version ${built ?? "nothing"}, not ${PULUMI_VERSION}.`;
      },
    },
    env,
    log,
  );
}

/** Builds one {@link GoBuildSpec} into `entry/bin` (temporary directory, then rename). */
export async function goBuild(
  entry: string,
  spec: GoBuildSpec,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<void> {
  const go = findOnPath("go", env.PATH ?? "");
  if (go === undefined) throw new Error(INSTALL_HELP);

  const parent = path.dirname(entry);
  mkdirSync(parent, { recursive: true });
  const work = mkdtempSync(path.join(parent, ".build-"));
  try {
    const mod = path.join(work, "module");
    const out = path.join(work, "out");
    mkdirSync(mod);
    mkdirSync(path.join(out, "bin"), { recursive: true });
    writeFileSync(
      path.join(mod, "go.mod"),
      ["module pulumi-irv-cli-build", "", "go 1.25", "", spec.goMod, ""].join("\n"),
    );
    const goEnv: NodeJS.ProcessEnv = {
      ...env,
      GOWORK: "off",
      GOFLAGS: `${env.GOFLAGS ?? ""} -buildvcs=false -mod=mod`.trim(),
    };
    for (const [name, text] of Object.entries(spec.sources ?? {})) writeFileSync(path.join(mod, name), text);
    const started = Date.now();
    log(`pulumi-irv: building ${spec.what} from Go modules with ${go} (takes minutes the first time)…`);
    if (spec.get !== undefined) await runLogged(go, ["get", spec.get], mod, goEnv, log, started);
    const target = path.join(out, "bin", spec.binary);
    await runLogged(
      go,
      ["build", "-tags", "osusergo", "-ldflags", spec.ldflags, "-o", target, spec.pkg],
      mod,
      goEnv,
      log,
      started,
    );
    const problem = spec.check(target);
    if (problem !== undefined) throw new Error(problem);
    rmSync(entry, { recursive: true, force: true });
    renameSync(out, entry);
    log(`pulumi-irv: built ${spec.what} in ${Math.round((Date.now() - started) / 1000)}s → ${entry}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs a command, forwarding its output lines to `log`, with a heartbeat while it is silent. */
function runLogged(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  started: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() === "") continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        // "go: downloading …" lines are the only progress go prints; show them, they are few per module.
        log(`  ${line}`);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const heartbeat = setInterval(() => {
      log(`pulumi-irv: still running \`go ${args[0]}\` (${Math.round((Date.now() - started) / 1000)}s)…`);
    }, 30_000);
    const stop = () => {
      clearInterval(heartbeat);
      child.kill("SIGTERM");
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    child.on("error", (err) => {
      clearInterval(heartbeat);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearInterval(heartbeat);
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `pulumi-irv: \`go ${args.join(" ")}\` failed (${signal ?? `exit ${code}`}). Last output:\n${tail.join("\n")}`,
          ),
        );
    });
  });
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  try {
    const cli = await ensurePulumiCli();
    if (process.argv.includes("--yaml")) {
      // `--yaml`: the directory of the YAML language host instead (built once, like the CLI).
      process.stdout.write(`${await ensureYamlLanguageHost({ cliBinDir: cli.binDir })}\n`);
    } else {
      process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(cli)}\n` : `${cli.binDir}\n`);
    }
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
