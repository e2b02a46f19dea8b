// `npm run demo` as a newcomer runs it: every step, and a summary at the end.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("npm run demo", () => {
  it("runs the quickstart, reviews and gates a risky edit, shows the policy pack, destroys, and ends with a summary", () => {
    const r = spawnSync(process.execPath, [path.join(root, "scripts", "demo.ts")], {
      cwd: root,
      encoding: "utf8",
      timeout: 540_000,
    });
    const out = stripVTControlCharacters(r.stdout);
    expect(r.status, r.stderr).toBe(0);
    expect(out).toContain("[8/8] pulumi destroy");
    // The risky edit: one row "all of owner", the gate stopping it, one approval entry letting it by.
    // The text table at 120 columns: the row (identity by name, subtree, risks), its grant below.
    expect(out).toMatch(
      /gained\s+payments-ci\s+\/\s+owner-equivalent[^\n]*\n\s+payments-ci-root-owner -> owner on \/: all of owner \(\d+\)/,
    );
    expect(out).toMatch(
      /payments-ci gained all of owner \(\d+\) on \/ through payments-ci-root-owner → owner .*not approved \(row ag-/,
    );
    expect(out).toContain("→ with that one entry, pulumi preview exited with 0");
    expect(out).toMatch(/└ identity payments-ci \(repo:acme\/payments:ref:refs\/heads\/main\) → viewer/);
    expect(out).toMatch(/\[mandatory\]\s+group-name-pattern/);
    expect(out).toContain("→ pulumi preview exited with 1: the pull request would be blocked");
    expect(out).toMatch(/Summary: done in [\d.]+ s; the emulator answered \d+ API requests\./);
  });
});
