// How the pack finds the `pulumi` command running it (a /proc tree made here: the walk up the
// parents, and the PWD fallback where there is no /proc), and what it reads through it: the stack's
// config (for the roles the gate reads from the API) and why it could not — a fake CLI stands in.
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { engineContext, exportStack, stackConfig } from "../../../policy/policies/index.js";

const SECRET = "irv-secret-token-do-not-print";

// A `pulumi` that prints `stdout`, writes `stderr` and exits with `code`, whatever it is asked.
function fakeCli(stdout: string, stderr = "", code = 0) {
  const dir = mkdtempSync(join(tmpdir(), "fake-pulumi-"));
  const cli = join(dir, "pulumi");
  writeFileSync(join(dir, "out"), stdout);
  writeFileSync(join(dir, "err"), stderr);
  writeFileSync(cli, `#!/bin/sh\ncat "${dir}/out"\ncat "${dir}/err" >&2\nexit ${code}\n`);
  chmodSync(cli, 0o755);
  return { cli, cwd: dir };
}

test("stackConfig: the stack's values by key, secrets decrypted, objects left out", async () => {
  const ctx = fakeCli(
    JSON.stringify({
      "irv:baseUrl": { value: "https://irv.example.com", secret: false },
      "irv:token": { value: SECRET, secret: true },
      "app:teams": { objectValue: ["a"], value: '["a"]', secret: false },
      "app:n": { value: 3, secret: false },
    }),
  );
  expect(await stackConfig(ctx, "dev")).toEqual({
    "irv:baseUrl": "https://irv.example.com",
    "irv:token": SECRET,
    "app:teams": '["a"]',
  });
});

test("a failed CLI call is one line naming the command and its error, never what it printed on stdout", async () => {
  const ctx = fakeCli(
    JSON.stringify({ "irv:token": { value: SECRET } }),
    "error: incorrect passphrase\n  at somewhere\n",
    255,
  );
  let message = "";
  try {
    await stackConfig(ctx, "dev");
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toBe("pulumi config --json --show-secrets --stack dev failed: error: incorrect passphrase");
  await expect(exportStack(ctx, "dev")).rejects.toThrow(
    /^pulumi stack export --stack dev failed: error: incorrect passphrase$/,
  );
});

test("without the pulumi command running the pack, nothing is run", async () => {
  await expect(stackConfig({}, "dev")).rejects.toThrow("the pulumi command running this pack was not found");
});

// A /proc of three processes: the pack (30) under a language host (20) under `pulumi` (10), which
// runs in a project's subdirectory.
function fakeProc() {
  const root = mkdtempSync(join(tmpdir(), "fake-proc-"));
  const project = join(root, "repo", "infra");
  mkdirSync(join(project, "sub"), { recursive: true });
  writeFileSync(join(project, "Pulumi.yaml"), "name: infra\nruntime: nodejs\n");
  const bin = join(root, "bin");
  mkdirSync(bin);
  for (const exe of ["pulumi", "node"]) writeFileSync(join(bin, exe), "");
  const proc = join(root, "proc");
  for (const [pid, ppid, exe] of [
    [30, 20, "node"],
    [20, 10, "node"],
    [10, 1, "pulumi"],
  ] as const) {
    mkdirSync(join(proc, String(pid)), { recursive: true });
    writeFileSync(join(proc, String(pid), "stat"), `${pid} (${exe} x) S ${ppid} 1 1 0`);
    symlinkSync(join(bin, exe), join(proc, String(pid), "exe"));
    symlinkSync(join(project, "sub"), join(proc, String(pid), "cwd"));
  }
  return { root, proc, project, bin };
}

test("engineContext walks up the parents to the pulumi binary: its path, its directory and the project above", () => {
  const { proc, project, bin } = fakeProc();
  expect(engineContext({ proc, pid: 30, env: {} })).toEqual({
    cli: join(bin, "pulumi"),
    cwd: join(project, "sub"),
    projectDir: project,
  });
});

test("engineContext with a /proc but no pulumi among the parents finds nothing (PWD is not trusted there)", () => {
  const { proc, project } = fakeProc();
  // Process 10's only parent is init.
  expect(engineContext({ proc, pid: 10, env: { PWD: project } })).toEqual({});
});

test("engineContext without /proc (macOS, Windows) falls back to PWD and the pulumi on PATH when PWD holds a project", () => {
  const { root, project } = fakeProc();
  const none = join(root, "no-proc");
  expect(engineContext({ proc: none, pid: 30, env: { PWD: join(project, "sub") } })).toEqual({
    cli: "pulumi",
    cwd: join(project, "sub"),
    projectDir: project,
  });
  expect(engineContext({ proc: none, pid: 30, env: { PWD: root } })).toEqual({});
  expect(engineContext({ proc: none, pid: 30, env: {} })).toEqual({});
});
