import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** What goes into the temp project's package.json, as `pulumi new typescript` writes it. */
export interface ConsumerManifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/**
 * Copies a fixture project into `dir` (a temp dir outside the repository) and writes its package.json.
 *
 * @example
 * makeProject(fixture("ts-project"), dir, { dependencies: { "@pulumi/pulumi": "3.270.0" }, devDependencies: {} });
 */
export function makeProject(fixtureDir: string, dir: string, manifest: ConsumerManifest): void {
  cpSync(fixtureDir, dir, { recursive: true });
  const pkg = { name: path.basename(dir), main: "index.ts", ...manifest };
  writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}

/**
 * Runs npm in a project and returns its stdout; the error names the command and carries npm's stderr.
 * `--prefer-offline` makes repeated runs use the npm cache instead of asking the registry.
 *
 * @example
 * npm(dir, ["install", "--omit=dev"]);
 */
export function npm(dir: string, args: string[]): string {
  try {
    return execFileSync("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`npm ${args.join(" ")} in ${dir} failed: ${e.stderr ?? e.message}`);
  }
}

/**
 * Every installed copy of a package (`npm ls --all --parseable`), as paths: one entry means one copy.
 *
 * @example
 * expect(installedCopies(dir, "@pulumi/pulumi")).toHaveLength(1);
 */
export function installedCopies(dir: string, name: string): string[] {
  const out = npm(dir, ["ls", name, "--all", "--parseable"]);
  return [...new Set(out.split("\n").filter((l) => l.endsWith(`node_modules/${name}`)))];
}

/**
 * Bytes of every file below a directory (symbolic links not followed), like `du --apparent-size`.
 *
 * @example
 * const mb = treeBytes(path.join(dir, "node_modules")) / 1e6;
 */
export function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(p);
    else if (entry.isFile()) total += statSync(p).size;
  }
  return total;
}
