// grpcurl, the gRPC command-line client nobody here wrote: built once per machine from the Go module
// proxy and cached outside the repository, as scripts/pulumi-cli.ts caches the Pulumi CLI.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { cacheRoot, goBuild, withLock } from "../../../scripts/pulumi-cli.js";

/**
 * The grpcurl release the e2e tests run.
 *
 * @example
 * GRPCURL_VERSION; // "1.9.4"
 */
export const GRPCURL_VERSION = "1.9.4";
const MODULE = "github.com/fullstorydev/grpcurl";

function versionOf(exe: string): string | undefined {
  if (!existsSync(exe)) return undefined;
  const r = spawnSync(exe, ["-version"], { encoding: "utf8" });
  return /grpcurl v?(\S+)/.exec(`${r.stdout}${r.stderr}`)?.[1];
}

/**
 * The path of a grpcurl v{@link GRPCURL_VERSION}: the cached build
 * (`${XDG_CACHE_HOME:-~/.cache}/pulumi-irv/grpcurl-v1.9.4/bin/grpcurl`), else a fresh `go build` of
 * the module (a minute or two with a warm Go cache).
 *
 * @example
 * const grpcurl = await ensureGrpcurl();
 * spawnSync(grpcurl, ["-plaintext", "127.0.0.1:8080", "list"]);
 */
export async function ensureGrpcurl(
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<string> {
  const entry = path.join(cacheRoot(), `grpcurl-v${GRPCURL_VERSION}`);
  const exe = path.join(entry, "bin", "grpcurl");
  if (versionOf(exe) === GRPCURL_VERSION) return exe;
  await withLock(`${entry}.lock`, log, async () => {
    if (versionOf(exe) === GRPCURL_VERSION) return;
    await goBuild(
      entry,
      {
        what: `grpcurl v${GRPCURL_VERSION}`,
        goMod: `require ${MODULE} v${GRPCURL_VERSION}`,
        get: `${MODULE}/cmd/grpcurl@v${GRPCURL_VERSION}`,
        pkg: `${MODULE}/cmd/grpcurl`,
        ldflags: `-X main.version=v${GRPCURL_VERSION}`,
        binary: "grpcurl",
        check: (built) =>
          versionOf(built) === GRPCURL_VERSION
            ? undefined
            : `the built grpcurl reports ${versionOf(built) ?? "no version"}, not ${GRPCURL_VERSION}`,
      },
      process.env,
      log,
    );
  });
  return exe;
}
