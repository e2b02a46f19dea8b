// drift reads the state and the config with two `pulumi` processes side by side. A shell script
// stands in for `pulumi` on PATH: what is pinned is that a failed read stops the other one.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { drift } from "../../../../provider/cli/drift.js";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("pulumi-irv drift's reads", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "irv-drift-reads-"));
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  // Regression: the export went on after the config read had failed, a `pulumi` process outliving
  // the CLI that started it (the CI run of 2026-11-28 found a late writer in a stack's directory).
  it("stop the state's export when the config read fails, and say why in one line", async () => {
    const pidFile = path.join(dir, "export.pid");
    const fake = path.join(dir, "pulumi");
    writeFileSync(
      fake,
      [
        "#!/bin/sh",
        `if [ "$1" = stack ]; then echo $$ > ${pidFile}; exec sleep 30; fi`,
        "sleep 0.3; echo 'error: no stack named dev found' >&2; exit 255",
        "",
      ].join("\n"),
    );
    chmodSync(fake, 0o755);
    process.env.PATH = `${dir}${path.delimiter}${savedPath}`;
    await expect(drift({ cwd: dir, stack: "dev" })).rejects.toThrow(/no stack named dev found/);
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(20);
    expect(alive(pid)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
