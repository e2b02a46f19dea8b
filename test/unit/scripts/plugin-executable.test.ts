// The Node launcher a release ships where it cannot ship the self-contained plugin (macOS; the
// .cmd on Windows): without Node on PATH it says so in one line; with it, it runs the bundle beside
// itself using nothing else from PATH.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CMD_LAUNCHER, SHELL_LAUNCHER } from "../../../scripts/plugin-executable.ts";

describe("the plugin's Node launcher", () => {
  let dir: string;
  let launcher: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "irv-launcher-"));
    launcher = path.join(dir, "pulumi-resource-irv");
    writeFileSync(launcher, SHELL_LAUNCHER);
    chmodSync(launcher, 0o755);
    writeFileSync(
      path.join(dir, "pulumi-resource-irv.mjs"),
      "console.log(process.argv.slice(2).join(' '));\n",
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names Node.js >= 22 in one line when there is no node on PATH", () => {
    const r = spawnSync(launcher, [], { env: { PATH: path.join(dir, "nothing-here") }, encoding: "utf8" });
    expect(r.stderr).toBe("pulumi-resource-irv: Node.js >= 22 is required on PATH (https://nodejs.org)\n");
    expect(r.status).toBe(1);
  });

  it("runs the bundle beside it on the node of PATH, passing the arguments, with only node on PATH", () => {
    const r = spawnSync(launcher, ["127.0.0.1:1234"], {
      env: { PATH: path.dirname(process.execPath) },
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("127.0.0.1:1234\n");
  });

  it("has a Windows twin that checks for node the same way (the engine runs a .cmd plugin)", () => {
    expect(CMD_LAUNCHER).toContain("where node >nul 2>nul ||");
    expect(CMD_LAUNCHER).toContain("Node.js ^>= 22 is required on PATH");
    expect(CMD_LAUNCHER).toContain('node "%~dp0pulumi-resource-irv.mjs" %*');
    expect(CMD_LAUNCHER.split("\r\n").every((line) => !line.includes("\n"))).toBe(true);
  });
});
