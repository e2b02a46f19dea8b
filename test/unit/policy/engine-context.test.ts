// What the pack reads through the `pulumi` command running it: the stack's config (for the roles the
// gate reads from the API) and why it could not — a fake CLI stands in for pulumi.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { exportStack, stackConfig } from "../../../policy/policies/index.js";

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

test("stackConfig: the stack's values by key, secrets decrypted, objects left out", () => {
  const ctx = fakeCli(
    JSON.stringify({
      "irv:baseUrl": { value: "https://irv.example.com", secret: false },
      "irv:token": { value: SECRET, secret: true },
      "app:teams": { objectValue: ["a"], value: '["a"]', secret: false },
      "app:n": { value: 3, secret: false },
    }),
  );
  expect(stackConfig(ctx, "dev")).toEqual({
    "irv:baseUrl": "https://irv.example.com",
    "irv:token": SECRET,
    "app:teams": '["a"]',
  });
});

test("a failed CLI call is one line naming the command and its error, never what it printed on stdout", () => {
  const ctx = fakeCli(
    JSON.stringify({ "irv:token": { value: SECRET } }),
    "error: incorrect passphrase\n  at somewhere\n",
    255,
  );
  let message = "";
  try {
    stackConfig(ctx, "dev");
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toBe("pulumi config --json --show-secrets --stack dev failed: error: incorrect passphrase");
  expect(() => exportStack(ctx, "dev")).toThrow(
    /^pulumi stack export --stack dev failed: error: incorrect passphrase$/,
  );
});

test("without the pulumi command running the pack, nothing is run", () => {
  expect(() => stackConfig({}, "dev")).toThrow("the pulumi command running this pack was not found");
});
