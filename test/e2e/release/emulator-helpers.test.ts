// The testing examples as a Python or Go user runs them, with only the release's artifacts: the
// release's linux-amd64 `irv-emulator` on PATH, the plugin installed from the release's archive, and
// - pytest with pulumi-irv-testing and the SDK installed from the release's wheels into a fresh venv;
// - `go test ./...` with the Go module (and its irvtest package) from the release.
// Each must pass and leave nothing behind: no emulator process, no data directory (every temp
// directory of the run is under a TMPDIR of the test's own, checked empty of emulator data after).
// The release is built once per source tree and shared (test/e2e/support/cached-release.ts).
import { execFile } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureGoLanguageHost } from "../../../scripts/go-host.ts";
import { pulumiEnv } from "../../../scripts/pulumi-cli.ts";
import {
  ensurePythonLanguageHost,
  ensurePythonWheelhouse,
  pipInstallOffline,
  pythonInterpreter,
} from "../../../scripts/python-sdk.ts";
import { ensurePytestWheels } from "../../../scripts/python-testing.ts";
import type { Release } from "../../../scripts/release.ts";
import { pulumiBinDir } from "../harness/index.js";
import { cachedRelease } from "../support/cached-release.js";

const root = path.resolve(import.meta.dirname, "../../..");
const exec = promisify(execFile);

/** Pids of running processes whose executable is `exe`. */
function processesOf(exe: string): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/exe`) === exe;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("the testing examples on the release's artifacts", () => {
  let release: Release;
  let work: string;
  let emulatorBin: string;
  let cliBin: string;
  /** The environment of a run: the emulator and the CLI on PATH, a PULUMI_HOME holding the release's plugin. */
  let baseEnv: Record<string, string>;

  beforeAll(async () => {
    release = await cachedRelease();
    cliBin = pulumiBinDir();
    work = mkdtempSync(path.join(tmpdir(), "irv-testing-examples-"));
    emulatorBin = path.join(work, "bin");
    mkdirSync(emulatorBin);
    await exec("tar", [
      "-xzf",
      path.join(release.out, release.emulator["linux-amd64"]?.file ?? ""),
      "-C",
      emulatorBin,
    ]);
    const home = path.join(work, "pulumi-home");
    const state = path.join(work, "state");
    mkdirSync(state);
    baseEnv = pulumiEnv({ binDir: cliBin, stateDir: state, homeDir: home });
    baseEnv.PATH = [emulatorBin, baseEnv.PATH].join(path.delimiter);
    delete baseEnv.IRV_EMULATOR;
    const plugin = path.join(release.out, release.archives["linux-amd64"]?.file ?? "");
    await exec(
      path.join(cliBin, "pulumi"),
      ["plugin", "install", "resource", "irv", release.version, "--file", plugin],
      {
        env: baseEnv,
      },
    );
  });

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  /** A TMPDIR of the run's own, to check what the helper left in it. */
  const freshTmp = (name: string) => {
    const dir = path.join(work, name);
    mkdirSync(dir);
    return dir;
  };
  const leftovers = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith("irv-emulator-"));

  it("pytest passes with pulumi-irv-testing from the release's wheel, leaving no emulator and no data", async () => {
    const { wheelhouse } = await ensurePythonWheelhouse();
    const pytestWheels = await ensurePytestWheels();
    const pyHost = await ensurePythonLanguageHost({ cliBinDir: cliBin });
    const project = path.join(work, "python");
    cpSync(path.join(root, "examples", "testing", "python"), project, { recursive: true });
    const venv = path.join(project, "venv");
    await exec(pythonInterpreter(), ["-m", "venv", venv]);
    pipInstallOffline(path.join(venv, "bin", "python"), wheelhouse, [
      "--find-links",
      pytestWheels,
      path.join(release.out, release.python.wheel),
      path.join(release.out, release.python.testing),
      "pytest",
    ]);
    const tmp = freshTmp("tmp-python");
    const run = await exec(path.join(venv, "bin", "pytest"), ["-p", "no:cacheprovider", "-q"], {
      cwd: project,
      env: {
        ...baseEnv,
        PATH: [path.join(venv, "bin"), pyHost, baseEnv.PATH].join(path.delimiter),
        TMPDIR: tmp,
      },
    });
    expect(run.stdout).toMatch(/1 passed/);
    // What it ships is typed: py.typed, and clean under mypy --strict as installed.
    pipInstallOffline(path.join(venv, "bin", "python"), wheelhouse, ["mypy"]);
    const mypy = await exec(path.join(venv, "bin", "mypy"), ["--strict", "-p", "pulumi_irv_testing"], {
      cwd: project,
    });
    expect(mypy.stdout).toMatch(/^Success: no issues found/);
    expect(processesOf(path.join(emulatorBin, "irv-emulator"))).toEqual([]);
    expect(leftovers(tmp)).toEqual([]);
  });

  it("`go test ./...` passes with the Go module and its irvtest from the release, leaving no emulator and no data", async () => {
    const goHost = await ensureGoLanguageHost({ cliBinDir: cliBin });
    const project = path.join(work, "go");
    cpSync(path.join(root, "examples", "testing", "go"), project, { recursive: true });
    // The module as its tag publishes it: the release's go/irv, where `go get` would fetch it from.
    const goMod = readFileSync(path.join(project, "go.mod"), "utf8").replace(
      /=> \.\.\/\.\.\/\.\.\/generated-sdks\/go\/irv/,
      `=> ${path.join(release.out, release.goModule)}`,
    );
    writeFileSync(path.join(project, "go.mod"), goMod);
    const tmp = freshTmp("tmp-go");
    // The Go module proxy stays reachable: the Automation API's modules beyond the SDK's come from it once.
    const env = {
      ...baseEnv,
      PATH: [goHost, baseEnv.PATH].join(path.delimiter),
      TMPDIR: tmp,
      GOFLAGS: "-mod=mod",
      GOWORK: "off",
    };
    const run = await exec("go", ["test", "-count=1", "./..."], {
      cwd: project,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(run.stdout).toMatch(/^ok\s/m);
    const vet = await exec("go", ["vet", "github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv/irvtest"], {
      cwd: project,
      env,
    });
    expect(vet.stderr).toBe("");
    expect(processesOf(path.join(emulatorBin, "irv-emulator"))).toEqual([]);
    expect(leftovers(tmp)).toEqual([]);
  });
});
