#!/usr/bin/env node
// The pytest helper `pulumi-irv-testing` (testing/python/pulumi-irv-testing): its wheel, built offline
// with the Python wheelhouse's tools (scripts/python-sdk.ts) as the release builds the SDK's, and the
// pytest wheels its tests and examples install, fetched once per machine from PyPI into the tool cache.
//
//   node scripts/python-testing.ts [--out DIR]   the wheel into DIR (default dist/)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { EnsurePulumiCliOptions } from "./pulumi-cli.ts";
import { cacheRoot, withLock } from "./pulumi-cli.ts";
import { ensurePythonWheelhouse, pythonInterpreter } from "./python-sdk.ts";
import { ARCHIVE_EPOCH } from "./release-archive.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The helper's source: a setuptools project. */
export const TESTING_PACKAGE_DIR = path.join(root, "testing", "python", "pulumi-irv-testing");

/** The pytest the helper is tested with (its requirement is `pytest>=7`). */
export const PYTEST_VERSION = "9.2.0";

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0)
    throw new Error(
      `pulumi-irv: \`${[cmd, ...args].join(" ")}\` failed (exit ${r.status}): ${(r.error?.message ?? "") + (r.stderr || r.stdout).trim()}`,
    );
  return r.stdout;
}

/**
 * The wheel of `pulumi-irv-testing` into `outDir`, at package.json's version (its pyproject must say
 * the same: one version for every artifact). Returns the wheel's path.
 * @example
 * const wheel = await buildTestingWheel({ outDir: "/tmp/r" });
 */
export async function buildTestingWheel(
  options: EnsurePulumiCliOptions & { outDir?: string } = {},
): Promise<string> {
  const outDir = options.outDir ?? path.join(root, "dist");
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const pyproject = readFileSync(path.join(TESTING_PACKAGE_DIR, "pyproject.toml"), "utf8");
  const own = /^version\s*=\s*"([^"]+)"/m.exec(pyproject)?.[1];
  if (own !== version)
    throw new Error(
      `pulumi-irv: testing/python/pulumi-irv-testing/pyproject.toml is at version ${own ?? "?"}, package.json at ${version}: set it to ${version}.`,
    );
  const { python } = await ensurePythonWheelhouse(options);
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(path.join(outDir, ".python-testing-"));
  try {
    // Built from a copy: setuptools writes build/ and *.egg-info beside the sources.
    const stage = path.join(work, "src");
    run("cp", ["-r", TESTING_PACKAGE_DIR, stage]);
    rmSync(path.join(stage, "build"), { recursive: true, force: true });
    run(python, ["-m", "build", "--no-isolation", "--wheel", "--outdir", path.join(work, "out"), stage], {
      ...process.env,
      SOURCE_DATE_EPOCH: String(ARCHIVE_EPOCH),
    });
    const wheel = `pulumi_irv_testing-${version}-py3-none-any.whl`;
    renameSync(path.join(work, "out", wheel), path.join(outDir, wheel));
    return path.join(outDir, wheel);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A directory of pytest's wheels (pytest and its requirements), fetched once per machine from PyPI:
 * `pip install --no-index --find-links <it> …` after that.
 * @example
 * const wheels = await ensurePytestWheels();
 */
export async function ensurePytestWheels(options: EnsurePulumiCliOptions = {}): Promise<string> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const entry = path.join(cacheRoot(env), `pytest-${PYTEST_VERSION}`);
  const wheels = path.join(entry, "wheels");
  const ready = path.join(entry, "ready");
  if (existsSync(ready)) return wheels;
  await withLock(`${entry}.lock`, log, async () => {
    if (existsSync(ready)) return;
    log(`pulumi-irv: fetching pytest ${PYTEST_VERSION} from PyPI…`);
    rmSync(entry, { recursive: true, force: true });
    run(
      pythonInterpreter(env),
      ["-m", "pip", "download", "--only-binary=:all:", "--dest", wheels, `pytest==${PYTEST_VERSION}`],
      { ...env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
    );
    writeFileSync(ready, `pytest==${PYTEST_VERSION}\n`);
  });
  return wheels;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const { values } = parseArgs({ options: { out: { type: "string" } }, allowPositionals: false });
    console.log(
      await buildTestingWheel(values.out !== undefined ? { outDir: path.resolve(values.out) } : {}),
    );
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
