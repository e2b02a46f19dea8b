// The Go SDK as a Go module: the go.mod and go.sum `npm run build:sdks` writes beside the generated
// sources of generated-sdks/go/irv, and the module cache the Go tests build it from without a network.
//
// Module path github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv; a release is the git tag
// `generated-sdks/go/irv/vX.Y.Z` (a module in a subdirectory is tagged with that directory as prefix), at the
// version of the plugin whose schema it was generated from (docs/toolchain.md, "Go").
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { EnsurePulumiCliOptions } from "./pulumi-cli.ts";
import { cacheRoot, PULUMI_VERSION, withLock } from "./pulumi-cli.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The Go SDK's module path (the schema's `language.go.importBasePath` without a package).
 * @example
 * `go get ${GO_SDK_MODULE}@v0.1.0`;
 */
export const GO_SDK_MODULE = "github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv";

/** The committed Go SDK module: where go.mod and go.sum are. */
export const GO_SDK_MODULE_DIR = path.join(root, "generated-sdks", "go", "irv");

/**
 * The git tag that releases the Go SDK at a version: Go resolves `GO_SDK_MODULE@vX.Y.Z` to it.
 * @example
 * goSdkTag("0.1.0"); // "generated-sdks/go/irv/v0.1.0"
 */
export function goSdkTag(version: string): string {
  return `generated-sdks/go/irv/v${version}`;
}

/**
 * The settings that run `go` from the module cache alone: no proxy, no checksum database, no
 * toolchain download, no workspace file from a parent folder. `-mod=readonly` (go's default, said
 * out loud): a build in the checkout must find go.mod and go.sum complete and never writes to them,
 * where `-mod=mod` would add go.sum lines a tidy module does not carry.
 * @example
 * createStack({ program, env: { ...OFFLINE_GO_ENV, PATH } });
 */
export const OFFLINE_GO_ENV: Readonly<Record<string, string>> = {
  GOPROXY: "off",
  GOSUMDB: "off",
  GOTOOLCHAIN: "local",
  GOWORK: "off",
  GOFLAGS: "-mod=readonly -buildvcs=false",
};

/**
 * `env` with {@link OFFLINE_GO_ENV} over it.
 * @example
 * spawnSync("go", ["build", "./..."], { cwd, env: offlineGoEnv() });
 */
export function offlineGoEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, ...OFFLINE_GO_ENV };
}

/**
 * Makes a generated Go SDK a module: writes its go.mod (requiring the Pulumi Go SDK at the CLI's
 * version, whose protocol the engine speaks) and lets `go mod tidy` complete it and write go.sum.
 * Reads modules from the proxy or, with {@link offlineGoEnv}, from the cache only.
 * @example
 * writeGoModule(path.join(outDir, "irv"));
 */
export function writeGoModule(moduleDir: string, env: NodeJS.ProcessEnv = process.env): void {
  writeFileSync(
    path.join(moduleDir, "go.mod"),
    [
      `module ${GO_SDK_MODULE}`,
      "",
      "go 1.25",
      "",
      `require github.com/pulumi/pulumi/sdk/v3 v${PULUMI_VERSION}`,
      "",
    ].join("\n"),
  );
  const r = spawnSync("go", ["mod", "tidy"], {
    cwd: moduleDir,
    encoding: "utf8",
    env: { ...env, GOWORK: "off", GOFLAGS: "-mod=mod -buildvcs=false" },
  });
  if (r.error !== undefined)
    throw new Error(
      `pulumi-irv: cannot run \`go\` (${r.error.message}); install Go >= 1.25 and put it on PATH.`,
    );
  if (r.status !== 0)
    throw new Error(
      `pulumi-irv: \`go mod tidy\` of the Go SDK in ${moduleDir} failed; check the network to the Go module proxy or run the Go SDK setup once online:\n${r.stderr.trim()}`,
    );
}

/**
 * Fills the Go module cache with every module the Go SDK, and so a program on it, builds from, once
 * per machine: a `go mod tidy` of a copy of generated-sdks/go/irv from the cache alone first, and only when
 * that fails, the same through the Go module proxy (under a lock, with a progress line). Tests run
 * `go` with {@link offlineGoEnv} after it.
 * @example
 * await ensureGoModuleCache();
 */
export async function ensureGoModuleCache(options: EnsurePulumiCliOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const tidy = (online: boolean): { ok: boolean; output: string } => {
    const work = mkdtempSync(path.join(tmpdir(), "irv-go-modules-"));
    try {
      cpSync(GO_SDK_MODULE_DIR, work, { recursive: true });
      const r = spawnSync("go", ["mod", "tidy"], {
        cwd: work,
        encoding: "utf8",
        env: online ? { ...env, GOWORK: "off", GOFLAGS: "-mod=mod" } : offlineGoEnv(env),
      });
      return { ok: r.status === 0, output: `${r.error?.message ?? ""}${r.stderr ?? ""}`.trim() };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
  if (tidy(false).ok) return;
  await withLock(path.join(cacheRoot(env), "go-modules.lock"), log, async () => {
    if (tidy(false).ok) return;
    log(
      `pulumi-irv: downloading the Go SDK's modules (github.com/pulumi/pulumi/sdk/v3 v${PULUMI_VERSION} and its requirements) into the Go module cache…`,
    );
    const online = tidy(true);
    if (!online.ok)
      throw new Error(
        `pulumi-irv: could not fill the Go module cache for ${GO_SDK_MODULE} (needs the Go module proxy once):\n${online.output}`,
      );
  });
}
