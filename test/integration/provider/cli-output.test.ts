// The built `pulumi-irv` bin writing a large report into a pipe, as `pulumi-irv drift --format json |
// jq` does. A shell script stands in for `pulumi` on PATH (the state and the config it prints are
// the point here, not the engine); the organization is the emulator's, over HTTP.
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";

const MAIN = fileURLToPath(new URL("../../../dist/provider/cli/main.js", import.meta.url));
const GROUPS = 1000;

describe("the pulumi-irv bin's output into a pipe", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  const dir = mkdtempSync(path.join(tmpdir(), "irv-cli-output-"));

  beforeAll(async () => {
    emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
    // A state of groups the organization no longer has: one finding each, a report of ~300 KB.
    const resources = Array.from({ length: GROUPS }, (_, i) => {
      const uid = `${emulator.orgUid}/${i.toString(16).padStart(16, "0")}`;
      const inputs = { parentUid: emulator.orgUid, name: `g-${i}`, description: "deleted by hand" };
      return {
        urn: `urn:pulumi:dev::org::pulumi-nodejs:dynamic/irv:Group::g-${i}`,
        type: "pulumi-nodejs:dynamic/irv:Group",
        id: uid,
        inputs,
        outputs: { ...inputs, uid },
      };
    });
    writeFileSync(path.join(dir, "state.json"), JSON.stringify({ version: 3, deployment: { resources } }));
    const config = {
      "irv:baseUrl": { value: emulator.baseUrl },
      "irv:token": { value: emulator.adminToken, secret: true },
    };
    writeFileSync(path.join(dir, "config.json"), JSON.stringify(config));
    const fake = path.join(dir, "pulumi");
    writeFileSync(
      fake,
      `#!/bin/sh\nif [ "$1" = stack ]; then exec cat ${dir}/state.json; fi\nexec cat ${dir}/config.json\n`,
    );
    chmodSync(fake, 0o755);
  });

  afterAll(async () => {
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Regression: the bin ended with process.exit right after its last write, so a report piped to
  // another program was cut at 64 KiB (bench/drift.ts's JSON.parse failed at position 146166).
  it("delivers the whole of a drift report of 1,000 findings", async () => {
    const env = { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH}` };
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [MAIN, "drift", "--stack", "dev", "--cwd", dir, "--format", "json"],
        { env, maxBuffer: 64 * 1024 * 1024 },
        (err, out, stderr) => (err === null ? resolve(out) : reject(new Error(`${err.message}\n${stderr}`))),
      ),
    );
    expect(stdout.length).toBeGreaterThan(64 * 1024);
    const report = JSON.parse(stdout) as { findings: { state: string }[] };
    expect(report.findings).toHaveLength(GROUPS);
    expect(report.findings.every((f) => f.state === "deleted")).toBe(true);
  });
});
