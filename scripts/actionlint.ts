#!/usr/bin/env node
// `node scripts/actionlint.ts [files…]`: lints the GitHub workflows with the real actionlint
// (github.com/rhysd/actionlint), built once per machine from the Go module proxy with the Go
// toolchain and cached beside the Pulumi CLI (docs/toolchain.md), like the other tools.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { EnsurePulumiCliOptions } from "./pulumi-cli.ts";
import { cacheRoot, goBuild, withLock } from "./pulumi-cli.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The actionlint release built and run: pinned, so that a cache entry is one version. */
export const ACTIONLINT_VERSION = "1.7.12";

const MODULE = "github.com/rhysd/actionlint";

/**
 * Finds or builds actionlint and returns its path.
 * @example
 * spawnSync(await ensureActionlint(), [".github/workflows/ci.yml"]);
 */
export async function ensureActionlint(options: EnsurePulumiCliOptions = {}): Promise<string> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const entry = path.join(cacheRoot(env), `actionlint-v${ACTIONLINT_VERSION}`);
  const exe = path.join(entry, "bin", "actionlint");
  if (!existsSync(exe))
    await withLock(`${entry}.lock`, log, async () => {
      if (existsSync(exe)) return;
      await goBuild(
        entry,
        {
          what: `actionlint v${ACTIONLINT_VERSION}`,
          goMod: `require ${MODULE} v${ACTIONLINT_VERSION}`,
          get: `${MODULE}/cmd/actionlint@v${ACTIONLINT_VERSION}`,
          pkg: `${MODULE}/cmd/actionlint`,
          ldflags: `-X ${MODULE}.version=v${ACTIONLINT_VERSION}`,
          binary: "actionlint",
          check: (built) => (existsSync(built) ? undefined : `pulumi-irv: go build made no ${built}`),
        },
        env,
        log,
      );
    });
  return exe;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const exe = await ensureActionlint();
  const r = spawnSync(exe, ["-no-color", ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
