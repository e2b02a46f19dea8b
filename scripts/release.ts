#!/usr/bin/env node
// `npm run release -- [--download-url URL] [--out DIR]`: everything a release publishes, each file as
// its users install it, into DIR (default dist/release/):
//
//   pulumi-resource-irv-v<version>-<os>-<arch>.tar.gz   the plugin, per platform (self-contained where
//                                                       built and checked here, else the Node launcher)
//   irv-emulator-v<version>-<os>-<arch>.tar.gz          the emulator, the same way
//                                                       (scripts/emulator-executable.ts)
//   pulumi-irv-<v>.tgz, pulumi-irv-emulator-<v>.tgz,    the npm packages (`npm pack`)
//   pulumi-irv-policy-<v>.tgz
//   pulumi_irv-<v>-py3-none-any.whl, pulumi_irv-<v>.tar.gz   the Python SDK
//   pulumi_irv_testing-<v>-py3-none-any.whl             the pytest helper (testing/python)
//   go/irv/                                             the Go module as its tag publishes it
//   RELEASE-NOTES.md                                    CHANGELOG.md's section of this version and
//                                                       the list of the archives
//   SHA256SUMS                                          of every file above (`sha256sum -c SHA256SUMS`)
//
// One version, package.json's, everywhere; the download URL (default: this repository's GitHub
// releases) goes into the schema's `pluginDownloadURL` and so into each SDK's pulumi-plugin.json.
// The SDKs are generated into DIR from a schema carrying that URL: committed files are never touched.
// See docs/releasing.md.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { bundlePlugin } from "./build-plugin.ts";
import { generateSdk, SCHEMA_PATH } from "./build-sdks.ts";
import { buildEmulatorArchives } from "./emulator-executable.ts";
import { GO_SDK_MODULE } from "./go-sdk.ts";
import type { PluginPlatform } from "./plugin-executable.ts";
import {
  buildExecutable,
  bundleExecutableEntry,
  CMD_LAUNCHER,
  ensureNodeBinary,
  PLUGIN_PLATFORMS,
  runnerFor,
  SHELL_LAUNCHER,
  timePluginStart,
} from "./plugin-executable.ts";
import { buildPythonWheel } from "./python-sdk.ts";
import { buildTestingWheel } from "./python-testing.ts";
import { writeReproducibleArchive } from "./release-archive.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The default download URL: this repository's GitHub releases (the committed schema's).
 * @example
 * `pulumi plugin install resource irv 0.1.0 --server ${DEFAULT_DOWNLOAD_URL}`;
 */
export const DEFAULT_DOWNLOAD_URL = "github://api.github.com/pulumi-irv/pulumi-irv";

/**
 * What {@link buildRelease} made, relative file names inside `out`.
 * @example
 * const { archives }: Release = await buildRelease({ out: "/tmp/r" });
 */
export interface Release {
  out: string;
  version: string;
  downloadUrl: string;
  /** Plugin archives by `<os>-<arch>`, and whether each holds the self-contained executable. */
  archives: Record<string, { file: string; selfContained: boolean }>;
  /** The emulator's archives (`irv-emulator`), the same way. */
  emulator: Record<string, { file: string; selfContained: boolean }>;
  npm: string[];
  /** The SDK's wheel and sdist, and the pytest helper's wheel (`testing`). */
  python: { wheel: string; sdist: string; testing: string };
  /** The Go module directory (go.mod at its top). */
  goModule: string;
  files: string[];
}

/**
 * The archive name the engine downloads for a platform.
 * @example
 * archiveName("0.1.0", { os: "linux", arch: "amd64" }); // "pulumi-resource-irv-v0.1.0-linux-amd64.tar.gz"
 */
export function archiveName(version: string, platform: Pick<PluginPlatform, "os" | "arch">): string {
  return `pulumi-resource-irv-v${version}-${platform.os}-${platform.arch}.tar.gz`;
}

/**
 * CHANGELOG.md's section of `version` (from its `## <version>` heading to the next `## `).
 * @example
 * releaseNotes(readFileSync("CHANGELOG.md", "utf8"), "0.1.0");
 */
export function releaseNotes(changelog: string, version: string): string {
  const lines = changelog.split("\n");
  const start = lines.findIndex((l) =>
    new RegExp(`^## \\[?v?${version.replaceAll(".", "\\.")}\\]?(\\s|$)`).test(l),
  );
  if (start < 0)
    throw new Error(
      `pulumi-irv: CHANGELOG.md has no "## ${version}" section: write the release notes first.`,
    );
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return `${lines
    .slice(start, end < 0 ? undefined : end)
    .join("\n")
    .trim()}\n`;
}

/**
 * The release notes' list of the archives: which platforms get a self-contained executable and
 * which the Node launcher.
 * @example
 * archiveNotes({ "linux-amd64": { file: "pulumi-resource-irv-v0.1.0-linux-amd64.tar.gz", selfContained: true } }, {});
 */
export function archiveNotes(plugin: Release["archives"], emulator: Release["emulator"]): string {
  const row = (a: { file: string; selfContained: boolean }) =>
    `- \`${a.file}\`: ${a.selfContained ? "self-contained (no Node.js needed)" : "Node launcher (needs Node.js >= 22 on PATH)"}`;
  return [
    "### Downloads",
    "",
    "The plugin `pulumi-resource-irv` (the engine installs it on first use):",
    "",
    ...Object.values(plugin).map(row),
    "",
    "The emulator `irv-emulator`, for tests against a local IRV API (docs/testing.md):",
    "",
    ...Object.values(emulator).map(row),
    "",
    "Check them with `sha256sum --check --ignore-missing SHA256SUMS`.",
    "",
  ].join("\n");
}

/**
 * `sha256sum` format: `<hex>  <name>` per file, sorted.
 * @example
 * sha256Sums("/tmp/r", ["a.tgz"]);
 */
export function sha256Sums(dir: string, files: string[]): string {
  return files
    .slice()
    .sort()
    .map(
      (f) =>
        `${createHash("sha256")
          .update(readFileSync(path.join(dir, f)))
          .digest("hex")}  ${f}`,
    )
    .join("\n")
    .concat("\n");
}

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0)
    throw new Error(
      `pulumi-irv: \`${[cmd, ...args].join(" ")}\` failed (exit ${r.status}): ${(r.stderr || r.stdout).trim()}`,
    );
  return r.stdout;
}

function filesUnder(dir: string, rel = ""): string[] {
  return readdirSync(path.join(dir, rel)).flatMap((name) => {
    const child = rel === "" ? name : `${rel}/${name}`;
    return statSync(path.join(dir, child)).isDirectory() ? filesUnder(dir, child) : [child];
  });
}

/**
 * Builds a release into `out` (emptied first). Needs `npm run build` done (the `release` script does it).
 * @example
 * await buildRelease({ out: "/tmp/r", downloadUrl: "http://127.0.0.1:8080/" });
 */
export async function buildRelease(
  options: { out?: string; downloadUrl?: string; log?: (line: string) => void } = {},
): Promise<Release> {
  const out = path.resolve(options.out ?? path.join(root, "dist", "release"));
  const downloadUrl = options.downloadUrl ?? DEFAULT_DOWNLOAD_URL;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  // Go's rule: from v2 on, a module's path ends in /v<major>, or `go get …@v2.0.0` refuses the tag.
  const major = Number(version.split(".")[0]);
  if (major >= 2 && !GO_SDK_MODULE.endsWith(`/v${major}`))
    throw new Error(
      `pulumi-irv: version ${version} needs the Go module path to end in /v${major} (schema language.go.importBasePath, scripts/go-sdk.ts GO_SDK_MODULE); see docs/releasing.md.`,
    );
  const notes = releaseNotes(readFileSync(path.join(root, "CHANGELOG.md"), "utf8"), version);
  rmSync(out, { recursive: true, force: true });
  const work = path.join(out, ".work");
  mkdirSync(work, { recursive: true });

  // The schema of this release: the committed one (package.json's version) with the download URL.
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Record<string, unknown>;
  if (schema.version !== version)
    throw new Error(
      `pulumi-irv: provider/plugin/schema.json is at version ${String(schema.version)}, package.json at ${version}: run \`npm run build:sdks\`.`,
    );
  const schemaFile = path.join(work, "schema.json");
  writeFileSync(schemaFile, `${JSON.stringify({ ...schema, pluginDownloadURL: downloadUrl }, null, 2)}\n`);

  // The plugin archives.
  log("release: bundling the plugin…");
  const esm = path.join(work, "pulumi-resource-irv.mjs");
  const cjs = path.join(work, "pulumi-resource-irv.cjs");
  await bundlePlugin(path.join(root, "dist", "provider", "plugin", "bin.js"), esm);
  await bundleExecutableEntry(cjs);
  const archives: Release["archives"] = {};
  for (const platform of PLUGIN_PLATFORMS) {
    const key = `${platform.os}-${platform.arch}`;
    const stage = path.join(work, key);
    mkdirSync(stage);
    copyFileSync(schemaFile, path.join(stage, "schema.json"));
    const runner = runnerFor(platform);
    let selfContained = false;
    if (platform.npmNode !== undefined && runner !== undefined) {
      log(`release: the self-contained plugin for ${key}…`);
      const exe = path.join(stage, "pulumi-resource-irv");
      // Checked here when made: it serves with an empty environment (no `node` anywhere to fall
      // back on). One from the build cache was checked by the build that made it.
      if (await buildExecutable(cjs, await ensureNodeBinary(platform.npmNode), exe))
        await timePluginStart([...runner.prefix, exe], runner.env);
      selfContained = true;
    } else if (platform.os === "windows") {
      copyFileSync(esm, path.join(stage, "pulumi-resource-irv.mjs"));
      writeFileSync(path.join(stage, "pulumi-resource-irv.cmd"), CMD_LAUNCHER);
    } else {
      copyFileSync(esm, path.join(stage, "pulumi-resource-irv.mjs"));
      writeFileSync(path.join(stage, "pulumi-resource-irv"), SHELL_LAUNCHER);
      chmodSync(path.join(stage, "pulumi-resource-irv"), 0o755);
    }
    const file = archiveName(version, platform);
    writeReproducibleArchive(stage, path.join(out, file));
    archives[key] = { file, selfContained };
  }
  const emulator = await buildEmulatorArchives(version, out, work, log);

  // The SDKs, generated from this release's schema.
  log("release: the Python and Go SDKs…");
  await generateSdk("python", schemaFile, path.join(work, "python"));
  await generateSdk("go", schemaFile, path.join(work, "go"));
  const py = await buildPythonWheel({ outDir: out, sdkDir: path.join(work, "python") });
  rmSync(path.join(out, ".pulumi_irv.sha256"), { force: true });
  const testingWheel = await buildTestingWheel({ outDir: out });
  const goModule = path.join("go", "irv");
  cpSync(path.join(work, "go", "irv"), path.join(out, goModule), { recursive: true });

  // The npm packages: the provider library and CLI, the emulator and the policy pack.
  log("release: npm pack…");
  const packed = JSON.parse(
    run(
      "npm",
      [
        "pack",
        "--json",
        "--ignore-scripts",
        "--workspaces",
        "--include-workspace-root",
        "--pack-destination",
        out,
      ],
      root,
    ),
  ) as { filename: string }[];

  writeFileSync(path.join(out, "RELEASE-NOTES.md"), `${notes}\n${archiveNotes(archives, emulator)}`);
  rmSync(work, { recursive: true, force: true });
  const files = filesUnder(out).filter((f) => f !== "SHA256SUMS");
  writeFileSync(path.join(out, "SHA256SUMS"), sha256Sums(out, files));
  return {
    out,
    version,
    downloadUrl,
    archives,
    emulator,
    npm: packed.map((p) => p.filename),
    python: {
      wheel: path.basename(py.wheel),
      sdist: path.basename(py.sdist),
      testing: path.basename(testingWheel),
    },
    goModule,
    files: [...files, "SHA256SUMS"].sort(),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const { values } = parseArgs({
      options: { "download-url": { type: "string" }, out: { type: "string" } },
      allowPositionals: false,
    });
    const release = await buildRelease({
      ...(values.out !== undefined ? { out: values.out } : {}),
      ...(values["download-url"] !== undefined ? { downloadUrl: values["download-url"] } : {}),
    });
    for (const [key, a] of [...Object.entries(release.archives), ...Object.entries(release.emulator)])
      console.log(`${a.file}  (${a.selfContained ? "self-contained" : "Node launcher"}, ${key})`);
    console.log(
      `release ${release.version} (${release.downloadUrl}): ${release.files.length} files in ${release.out}`,
    );
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
