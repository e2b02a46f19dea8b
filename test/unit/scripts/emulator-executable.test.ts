// The emulator as a release ships it where it cannot be self-contained (macOS; the .cmd on Windows):
// without Node on PATH its launcher says so in one line, pointing at the Linux executable; with it,
// it runs the bundle beside itself. And the release notes say which platform gets which.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EMULATOR_CMD_LAUNCHER,
  EMULATOR_SHELL_LAUNCHER,
  emulatorArchiveName,
} from "../../../scripts/emulator-executable.ts";
import { archiveNotes } from "../../../scripts/release.ts";

describe("the emulator's Node launcher", () => {
  let dir: string;
  let launcher: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "irv-emulator-launcher-"));
    launcher = path.join(dir, "irv-emulator");
    writeFileSync(launcher, EMULATOR_SHELL_LAUNCHER);
    chmodSync(launcher, 0o755);
    writeFileSync(path.join(dir, "irv-emulator.mjs"), "console.log(process.argv.slice(2).join(' '));\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names Node.js >= 22 in one line when there is no node on PATH, and where none is needed", () => {
    const r = spawnSync(launcher, [], { env: { PATH: path.join(dir, "nothing-here") }, encoding: "utf8" });
    expect(r.stderr).toBe(
      "irv-emulator: Node.js >= 22 is required on PATH (https://nodejs.org); on Linux the release's irv-emulator needs none\n",
    );
    expect(r.status).toBe(1);
  });

  it("runs the bundle beside it on the node of PATH with the emulator's flags", () => {
    const r = spawnSync(launcher, ["--port", "0"], {
      env: { PATH: path.dirname(process.execPath) },
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("--port 0\n");
  });

  it("has a Windows twin that checks for node the same way", () => {
    expect(EMULATOR_CMD_LAUNCHER).toContain("where node >nul 2>nul ||");
    expect(EMULATOR_CMD_LAUNCHER).toContain("irv-emulator: Node.js ^>= 22 is required on PATH");
    expect(EMULATOR_CMD_LAUNCHER).toContain('node "%~dp0irv-emulator.mjs" %*');
    expect(EMULATOR_CMD_LAUNCHER.split("\r\n").every((line) => !line.includes("\n"))).toBe(true);
  });
});

describe("the emulator in a release's files", () => {
  it("is named irv-emulator-v<version>-<os>-<arch>.tar.gz", () => {
    expect(emulatorArchiveName("0.1.0", { os: "linux", arch: "arm64" })).toBe(
      "irv-emulator-v0.1.0-linux-arm64.tar.gz",
    );
  });

  it("is listed in the release notes with what each archive needs", () => {
    const notes = archiveNotes(
      { "linux-amd64": { file: "pulumi-resource-irv-v1.2.3-linux-amd64.tar.gz", selfContained: true } },
      {
        "linux-amd64": { file: "irv-emulator-v1.2.3-linux-amd64.tar.gz", selfContained: true },
        "darwin-arm64": { file: "irv-emulator-v1.2.3-darwin-arm64.tar.gz", selfContained: false },
      },
    );
    expect(notes).toContain("- `irv-emulator-v1.2.3-linux-amd64.tar.gz`: self-contained (no Node.js needed)");
    expect(notes).toContain(
      "- `irv-emulator-v1.2.3-darwin-arm64.tar.gz`: Node launcher (needs Node.js >= 22 on PATH)",
    );
    expect(notes).toContain("- `pulumi-resource-irv-v1.2.3-linux-amd64.tar.gz`: self-contained");
  });
});
