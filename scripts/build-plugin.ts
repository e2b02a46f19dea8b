#!/usr/bin/env node
// `npm run build:plugin`: the native plugin `pulumi-resource-irv` as the engine runs it, from the
// compiled sources in dist/ (run `npm run build` first; `npm run build:plugin` does).
//
//   dist/plugin/pulumi-resource-irv        the executable: a shell shim running the bundle on `node`
//   dist/plugin/pulumi-resource-irv.mjs    provider, sdk, @pulumi/pulumi's gRPC stubs and every
//                                          dependency in one file (nothing to install)
//   dist/plugin/schema.json                the package schema (the checked-in provider/plugin/schema.json)
//   dist/pulumi-resource-irv-v<version>-<os>-<arch>.tar.gz
//                                          for `pulumi plugin install resource irv <version> --file …`
//
// Node >= 22 on PATH is the only requirement of the result. See provider/README.md.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "rolldown";
import { SHELL_LAUNCHER } from "./plugin-executable.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * What {@link buildPlugin} made.
 *
 * @example
 * const { tarball }: BuiltPlugin = await buildPlugin();
 */
export interface BuiltPlugin {
  /** Directory holding the executable, the bundle and schema.json: a project's `plugins: providers: [{ path }]`. */
  dir: string;
  /** The tarball `pulumi plugin install resource irv <version> --file` takes. */
  tarball: string;
  version: string;
}

// CommonJS dependencies inside an ES module bundle still find `require`, `__dirname`, `__filename`.
// Checked first in the bundle: an older Node fails with one line, not with a syntax error deep inside.
const BANNER = `if (Number(process.versions.node.split(".")[0]) < 22) { console.error("pulumi-resource-irv: Node.js >= 22 is required, found " + process.version); process.exit(1); }
import { createRequire as __irvCreateRequire } from "node:module"; const require = __irvCreateRequire(import.meta.url);
const __filename = import.meta.filename; const __dirname = import.meta.dirname;`;

/**
 * Bundles one entry as the plugin's bundle is made: one ES module with every dependency, the Node
 * version check first. The benchmarks bundle variants of the entry with it.
 *
 * @example
 * await bundlePlugin("dist/provider/plugin/bin.js", "dist/plugin/pulumi-resource-irv.mjs");
 */
export async function bundlePlugin(input: string, file: string): Promise<void> {
  await build({
    input,
    platform: "node",
    logLevel: "warn",
    output: { file, format: "esm", codeSplitting: false, banner: BANNER },
  });
}

/**
 * Bundles the plugin into `dist/plugin/` and packs the tarball.
 *
 * @example
 * const { dir, tarball, version } = await buildPlugin();
 */
export async function buildPlugin(): Promise<BuiltPlugin> {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const dir = path.join(root, "dist", "plugin");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await bundlePlugin(
    path.join(root, "dist", "provider", "plugin", "bin.js"),
    path.join(dir, "pulumi-resource-irv.mjs"),
  );
  copyFileSync(path.join(root, "provider", "plugin", "schema.json"), path.join(dir, "schema.json"));
  writeFileSync(path.join(dir, "pulumi-resource-irv"), SHELL_LAUNCHER);
  chmodSync(path.join(dir, "pulumi-resource-irv"), 0o755);
  const os =
    { darwin: "darwin", linux: "linux", win32: "windows" }[process.platform as string] ?? process.platform;
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
  const tarball = path.join(root, "dist", `pulumi-resource-irv-v${version}-${os}-${arch}.tar.gz`);
  const tar = spawnSync(
    "tar",
    ["-czf", tarball, "-C", dir, "pulumi-resource-irv", "pulumi-resource-irv.mjs", "schema.json"],
    {
      stdio: "inherit",
    },
  );
  if (tar.status !== 0) throw new Error(`tar failed (exit ${tar.status}) making ${tarball}`);
  return { dir, tarball, version };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const built = await buildPlugin();
  console.log(JSON.stringify(built));
}
