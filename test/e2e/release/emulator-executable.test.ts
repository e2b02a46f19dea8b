// The release's `irv-emulator`: the archives as the release lists them, the linux-amd64 executable
// with exactly the npm emulator's command line, --help and ready line, and — with no `node` anywhere
// on PATH — serving the quickstart's `pulumi up` run by the release's self-contained native plugin.
// The release is built once per source tree and shared (test/e2e/support/cached-release.ts).
import type { ChildProcess } from "node:child_process";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMULATOR_CLI } from "../../../scripts/emulator-executable.ts";
import { ensureYamlLanguageHost } from "../../../scripts/pulumi-cli.ts";
import type { Release } from "../../../scripts/release.ts";
import { IrvClient } from "../../../sdk/index.js";
import { createStack, diagnostics, pulumiBinDir } from "../harness/index.js";
import { cachedRelease } from "../support/cached-release.js";

const root = path.resolve(import.meta.dirname, "../../..");
const ORG = "0123456789abcdef0123456789abcdef01234567";

/** A running emulator process: its ready line and a stop that resolves with its exit code. */
interface Running {
  line: string;
  ready: { baseUrl: string; authUrl: string; orgUid: string; adminToken: string };
  stop(): Promise<number | null>;
}

function startProcess(command: string[], env: Record<string, string>): Promise<Running> {
  const [cmd, ...args] = command as [string, ...string[]];
  const child: ChildProcess = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once("line", (line) =>
      resolve({
        line,
        ready: JSON.parse(line) as Running["ready"],
        stop: () => {
          child.kill("SIGTERM");
          return exited;
        },
      }),
    );
    void exited.then((code) => reject(new Error(`${cmd} exited (${code}) before ready: ${stderr}`)));
  });
}

describe("the release's irv-emulator", () => {
  let release: Release;
  let unpacked: string;
  let exe: string;
  let cliBin: string;
  let yamlBin: string;
  const tarList = (file: string) =>
    spawnSync("tar", ["-tzf", path.join(release.out, file)], { encoding: "utf8" })
      .stdout.trim()
      .split("\n")
      .sort();

  beforeAll(async () => {
    release = await cachedRelease();
    unpacked = mkdtempSync(path.join(tmpdir(), "irv-emulator-exe-"));
    const file = release.emulator["linux-amd64"]?.file ?? "";
    const tar = spawnSync("tar", ["-xzf", path.join(release.out, file), "-C", unpacked], {
      encoding: "utf8",
    });
    if (tar.status !== 0) throw new Error(`unpacking ${file}: ${tar.stderr}`);
    exe = path.join(unpacked, "irv-emulator");
    cliBin = pulumiBinDir();
    yamlBin = await ensureYamlLanguageHost({ cliBinDir: cliBin });
    // A cold cache builds the release (and the YAML host) here: minutes on two shared cores.
  }, 900_000);

  afterAll(() => {
    if (unpacked !== undefined) rmSync(unpacked, { recursive: true, force: true });
  });

  it("ships self-contained on linux-amd64 and linux-arm64, the Node launcher elsewhere, each in SHA256SUMS and the notes", () => {
    const v = release.version;
    expect(release.emulator).toEqual({
      "linux-amd64": { file: `irv-emulator-v${v}-linux-amd64.tar.gz`, selfContained: true },
      "linux-arm64": { file: `irv-emulator-v${v}-linux-arm64.tar.gz`, selfContained: true },
      "darwin-amd64": { file: `irv-emulator-v${v}-darwin-amd64.tar.gz`, selfContained: false },
      "darwin-arm64": { file: `irv-emulator-v${v}-darwin-arm64.tar.gz`, selfContained: false },
      "windows-amd64": { file: `irv-emulator-v${v}-windows-amd64.tar.gz`, selfContained: false },
    });
    expect(tarList(`irv-emulator-v${v}-linux-amd64.tar.gz`)).toEqual(["irv-emulator"]);
    expect(tarList(`irv-emulator-v${v}-linux-arm64.tar.gz`)).toEqual(["irv-emulator"]);
    expect(tarList(`irv-emulator-v${v}-darwin-arm64.tar.gz`)).toEqual(["irv-emulator", "irv-emulator.mjs"]);
    expect(tarList(`irv-emulator-v${v}-windows-amd64.tar.gz`)).toEqual([
      "irv-emulator.cmd",
      "irv-emulator.mjs",
    ]);
    const check = spawnSync("sha256sum", ["--check", "--strict", "SHA256SUMS"], {
      cwd: release.out,
      encoding: "utf8",
    });
    expect(check.status).toBe(0);
    const sums = readFileSync(path.join(release.out, "SHA256SUMS"), "utf8");
    const notes = readFileSync(path.join(release.out, "RELEASE-NOTES.md"), "utf8");
    for (const { file } of Object.values(release.emulator)) {
      expect(sums).toContain(`  ${file}\n`);
      expect(notes).toContain(`\`${file}\``);
    }
  });

  it("prints the npm emulator's --help, and refuses a bad flag with its message and exit code", () => {
    const npm = (args: string[]) =>
      spawnSync(process.execPath, [EMULATOR_CLI, ...args], { cwd: root, encoding: "utf8" });
    const own = (args: string[]) => spawnSync(exe, args, { env: {}, encoding: "utf8" });
    const [help, npmHelp] = [own(["--help"]), npm(["--help"])];
    expect(help.stdout).toContain("Usage: irv-emulator [options]");
    expect({ stdout: help.stdout, status: help.status }).toEqual({
      stdout: npmHelp.stdout,
      status: npmHelp.status,
    });
    const [bad, npmBad] = [own(["--port", "eighty"]), npm(["--port", "eighty"])];
    expect(bad.status).toBe(2);
    expect({ stderr: bad.stderr, status: bad.status }).toEqual({
      stderr: npmBad.stderr,
      status: npmBad.status,
    });
  });

  it("prints the npm emulator's ready line for the same flags, and exits 0 on SIGTERM", async () => {
    const flags = ["--port", "0", "--admin-token", "irv-test-token", "--org-uid", ORG];
    const [own, npm] = await Promise.all([
      startProcess([exe, ...flags], {}),
      startProcess([process.execPath, EMULATOR_CLI, ...flags], {}),
    ]);
    const portless = (r: Running) => r.line.replaceAll(new URL(r.ready.baseUrl).port, "PORT");
    expect(portless(own)).toBe(portless(npm));
    expect(Object.keys(own.ready)).toEqual([
      "baseUrl",
      "authUrl",
      "issuerUrl",
      "orgUid",
      "adminToken",
      "grpcTarget",
    ]);
    expect(await Promise.all([own.stop(), npm.stop()])).toEqual([0, 0]);
  });

  it("runs with no node on PATH and serves the quickstart's up and destroy from the release's native plugin", async () => {
    for (const dir of [yamlBin, cliBin]) expect(existsSync(path.join(dir, "node")), dir).toBe(false);
    const data = mkdtempSync(path.join(tmpdir(), "irv-emulator-data-"));
    const emulator = await startProcess([exe, "--port", "0", "--data", path.join(data, "irv.db")], {});
    const admin = new IrvClient({ baseUrl: emulator.ready.baseUrl, token: emulator.ready.adminToken });
    const stack = await createStack({
      program: path.join(root, "examples", "quickstart-yaml"),
      config: {
        "irv:baseUrl": emulator.ready.baseUrl,
        "irv:authUrl": emulator.ready.authUrl,
        "irv:token": { value: emulator.ready.adminToken, secret: true },
        orgUid: emulator.ready.orgUid,
      },
      env: { PATH: [yamlBin, cliBin].join(path.delimiter) },
    });
    try {
      const plugin = path.join(release.out, release.archives["linux-amd64"]?.file ?? "");
      await stack.run(["plugin", "install", "resource", "irv", release.version, "--file", plugin]);
      const up = await stack.up();
      expect(diagnostics(up.events, "error")).toEqual([]);
      const groups = await admin.groups.collect({ descendantsOf: emulator.ready.orgUid });
      expect(groups.map((g) => g.description).sort()).toEqual([
        "Platform engineering",
        "The payments team",
        "The search team",
      ]);
      await stack.destroy();
      expect(await admin.groups.collect({ descendantsOf: emulator.ready.orgUid })).toEqual([]);
    } finally {
      await stack.dispose();
      await admin.close();
      expect(await emulator.stop()).toBe(0);
      rmSync(data, { recursive: true, force: true });
    }
  });
});
