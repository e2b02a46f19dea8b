import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lockTakenAt, repairBrokenAttrs } from "../../../../provider/cli/file-backend.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function backend(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "irv-backend-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, ".pulumi", name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

describe("repairBrokenAttrs (file backend)", () => {
  // Regression (issue 25 item 2): a torn write or a full disk leaves part of a sidecar's JSON, which
  // breaks every command as an empty one does; only empty ones were deleted.
  it("deletes empty and unparsable .attrs sidecars, and keeps valid ones and the state files", () => {
    const dir = backend({
      "stacks/app/dev.json": "{}",
      "stacks/app/dev.json.attrs": '{"user.cache-control":"","user.content-type":"applic',
      "stacks/app/prod.json.attrs": "",
      "stacks/app/qa.json.attrs": '{"user.content-type":"application/json"}',
      "history/app/dev/dev-1.history.json.attrs": "\u0000\u0000\u0000",
    });
    expect(repairBrokenAttrs(dir)).toEqual([
      ".pulumi/history/app/dev/dev-1.history.json.attrs",
      ".pulumi/stacks/app/dev.json.attrs",
      ".pulumi/stacks/app/prod.json.attrs",
    ]);
    expect(repairBrokenAttrs(dir)).toEqual([]);
  });

  it("does nothing on a backend without a .pulumi directory", () => {
    expect(repairBrokenAttrs(backend({}))).toEqual([]);
  });
});

describe("lockTakenAt (file backend)", () => {
  const lock = (timestamp: string) => JSON.stringify({ pid: 7, username: "ci", hostname: "h", timestamp });

  it("reads the stack's lock time, not another project's lock of a stack of that name", () => {
    const dir = backend({
      "locks/organization/infra/dev/a.json": lock("2026-11-25T16:30:00.123456789Z"),
      "locks/organization/other/dev/b.json": lock("2026-11-25T10:00:00Z"),
    });
    expect(lockTakenAt(dir, "dev", "infra")).toBe(Date.parse("2026-11-25T16:30:00.123Z"));
    expect(lockTakenAt(dir, "prod", "infra")).toBeUndefined();
  });
});
