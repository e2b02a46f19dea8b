// The CLI answers --help, --version and a usage error without loading any of its dependencies
// (issue 40: `pulumi-irv --help` spent a second of CPU loading the Automation API before it printed
// anything). The bin runs as a user runs it, in its own Node process, from the sources (Node's type
// stripping); every module it resolved is recorded.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const main = join(root, "provider/cli/main.ts");
const hooks = ["bench/support/register-ts.mjs", "test/unit/provider/cli/record-imports.mjs"];

function run(args: string[]) {
  const file = join(mkdtempSync(join(tmpdir(), "cli-start-")), "imports.json");
  const r = spawnSync(
    process.execPath,
    [...hooks.flatMap((h) => ["--import", join(root, h)]), main, ...args],
    {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, RECORD_IMPORTS_FILE: file },
    },
  );
  const loaded = (JSON.parse(readFileSync(file, "utf8")) as string[])
    .filter((u) => !u.startsWith("node:"))
    .map((u) => fileURLToPath(u).slice(root.length));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, loaded: [...new Set(loaded)].sort() };
}

const ONLY_THE_CLI = [
  "provider/cli/cli-error.ts",
  "provider/cli/main.ts",
  "provider/cli/run-cli.ts",
  "provider/node-version.ts",
];

it("--help prints the commands and loads nothing but the CLI's own entry", () => {
  const r = run(["--help"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^Usage: pulumi-irv <command>[\s\S]*access-review/);
  expect(r.loaded).toEqual(ONLY_THE_CLI);
});

it("--version prints the package's version (it exited 2 as an unknown command) and loads only its package.json", () => {
  const r = run(["--version"]);
  expect(r.code).toBe(0);
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  expect(r.stdout).toBe(`${version}\n`);
  expect(r.loaded).toEqual([...ONLY_THE_CLI, "package.json"].sort());
});

it("access-review with a bad flag names it, exits 2 and loads none of the review", () => {
  const r = run(["access-review", "--stak", "dev"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe("pulumi-irv access-review: Unknown option '--stak'\n");
  expect(r.loaded).toEqual(ONLY_THE_CLI);
});
