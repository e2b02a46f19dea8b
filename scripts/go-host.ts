// The Go language host the e2e tests run Go programs with: our own `pulumi-language-go`
// (scripts/pulumi-language-go/main.go, on github.com/pulumi/pulumi/sdk/v3 at the CLI's version),
// built once per machine like the CLI and placed beside it. Pulumi's own Go host is not served by the
// Go module proxy here; users run Pulumi's, which a Pulumi install ships (docs/toolchain.md, "Go").
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { EnsurePulumiCliOptions } from "./pulumi-cli.ts";
import { cacheRoot, goBuild, linkFresh, PULUMI_VERSION, withLock } from "./pulumi-cli.ts";

const HOST = "pulumi-language-go";
const HOST_SOURCE = fileURLToPath(new URL("./pulumi-language-go/main.go", import.meta.url));

/**
 * Finds or builds the Go language host and returns the directory holding it, to put first on the
 * engine's PATH: `cliBinDir` when the CLI there has a Go host (a Pulumi install ships the real one),
 * or when that CLI is our cached build, which then gets ours beside it; else the host's cache entry.
 * The build is keyed by the host's source and the SDK version, so an edited host is rebuilt.
 * @example
 * const goBin = await ensureGoLanguageHost({ cliBinDir: binDir });
 * env.PATH = [goBin, binDir, process.env.PATH].join(path.delimiter);
 */
export async function ensureGoLanguageHost(
  options: EnsurePulumiCliOptions & { cliBinDir?: string } = {},
): Promise<string> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cliBinDir = options.cliBinDir;
  const ours = cliBinDir !== undefined && isInside(cliBinDir, cacheRoot(env));
  if (cliBinDir !== undefined && !ours && existsSync(path.join(cliBinDir, HOST))) return cliBinDir;

  const source = readFileSync(HOST_SOURCE, "utf8");
  const key = createHash("sha256").update(`${PULUMI_VERSION}\0${source}`).digest("hex").slice(0, 12);
  const entry = path.join(cacheRoot(env), `${HOST}-${key}`);
  const exe = path.join(entry, "bin", HOST);
  if (!existsSync(exe))
    await withLock(`${entry}.lock`, log, async () => {
      if (existsSync(exe)) return;
      await goBuild(
        entry,
        {
          what: `pulumi-irv's test-only ${HOST} (on github.com/pulumi/pulumi/sdk/v3 v${PULUMI_VERSION})`,
          goMod: `require github.com/pulumi/pulumi/sdk/v3 v${PULUMI_VERSION}`,
          sources: { "main.go": source },
          pkg: ".",
          ldflags: `-X main.version=${PULUMI_VERSION}`,
          binary: HOST,
          check: (built) => (existsSync(built) ? undefined : `pulumi-irv: go build made no ${built}`),
        },
        env,
        log,
      );
    });
  if (!ours) return path.join(entry, "bin");
  linkFresh(exe, path.join(cliBinDir, HOST), { replace: true });
  return cliBinDir;
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}
