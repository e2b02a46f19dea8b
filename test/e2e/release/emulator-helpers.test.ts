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
  createOfflineVirtualenv,
  ensurePythonLanguageHost,
  ensurePythonWheelhouse,
  pipInstallOffline,
} from "../../../scripts/python-sdk.ts";
import { ensurePytestWheels } from "../../../scripts/python-testing.ts";
import type { Release } from "../../../scripts/release.ts";
import { pulumiBinDir } from "../harness/index.js";
import { cachedRelease } from "../support/cached-release.js";

const root = path.resolve(import.meta.dirname, "../../..");
const exec = promisify(execFile);

/** A fixtures file seeding one group under the organization. */
const SEED = JSON.stringify({ groups: [{ name: "seeded", description: "From the fixtures file" }] });

/** Helper checks beside the example: a seeded emulator, and a failing test that must still clean up. */
const PYTEST_CHECKS = `import json
import urllib.request

import pytest


@pytest.mark.irv_fixtures("seed.json")
def test_seeded(irv_emulator):
    url = irv_emulator.base_url + "/iam/v2/groups?uidp.descendants_of=" + irv_emulator.org_uid
    request = urllib.request.Request(url, headers={"Authorization": "Bearer " + irv_emulator.admin_token})
    with urllib.request.urlopen(request) as response:
        assert [g["name"] for g in json.load(response)["groups"]] == ["seeded"]


def test_fails_on_purpose(irv_env):
    assert False, "on purpose: teardown must still stop the emulator"
`;

const GO_CHECKS = `package checks

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv/irvtest"
)

func TestSeeded(t *testing.T) {
	irv := irvtest.Start(t, irvtest.WithFixtures("seed.json"))
	req, _ := http.NewRequest(http.MethodGet, irv.BaseURL+"/iam/v2/groups?uidp.descendants_of="+irv.OrgUID, nil)
	req.Header.Set("Authorization", "Bearer "+irv.AdminToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var list struct {
		Groups []struct{ Name string } \`json:"groups"\`
	}
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil || len(list.Groups) != 1 || list.Groups[0].Name != "seeded" {
		t.Fatalf("groups = %+v (%v)", list.Groups, err)
	}
}

func TestFailsOnPurpose(t *testing.T) {
	irvtest.Start(t).Setenv(t)
	t.Fatal("on purpose: cleanup must still stop the emulator")
}
`;

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
    // A cold cache builds the release here: minutes on two shared cores.
  }, 900_000);

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

  it("pytest passes with pulumi-irv-testing from the release's wheel, seeds from a fixtures file, and leaves no emulator and no data even after a failing test", async () => {
    const wheelhouse = await ensurePythonWheelhouse();
    const pytestWheels = await ensurePytestWheels();
    const pyHost = await ensurePythonLanguageHost({ cliBinDir: cliBin });
    const project = path.join(work, "python");
    cpSync(path.join(root, "examples", "testing", "python"), project, { recursive: true });
    const venv = path.join(project, "venv");
    // The release's wheels installed by pip into a fresh venv, as a user does; the wheelhouse venv's pip
    // runs it, aimed at the venv, which then needs no pip of its own (ensurepip was most of its cost).
    const python = createOfflineVirtualenv(venv, wheelhouse);
    pipInstallOffline(python, wheelhouse, [
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
    // The fixtures marker seeds; a failing test still stops its emulator and removes its data.
    const checks = path.join(work, "python-checks");
    mkdirSync(checks);
    writeFileSync(path.join(checks, "seed.json"), SEED);
    writeFileSync(path.join(checks, "test_checks.py"), PYTEST_CHECKS);
    const failing = await exec(path.join(venv, "bin", "pytest"), ["-p", "no:cacheprovider", "-q"], {
      cwd: checks,
      env: { ...baseEnv, TMPDIR: tmp },
    }).then(
      () => ({ code: 0, stdout: "" }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/1 failed, 1 passed/);
    // What it ships is typed: py.typed, and clean under mypy --strict as installed.
    pipInstallOffline(python, wheelhouse, ["mypy"]);
    const mypy = await exec(path.join(venv, "bin", "mypy"), ["--strict", "-p", "pulumi_irv_testing"], {
      cwd: project,
    });
    expect(mypy.stdout).toMatch(/^Success: no issues found/);
    expect(processesOf(path.join(emulatorBin, "irv-emulator"))).toEqual([]);
    expect(leftovers(tmp)).toEqual([]);
  });

  it("`go test ./...` passes with the Go module and its irvtest from the release, seeds from a fixtures file, and leaves no emulator and no data even after a failing test", async () => {
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
    // WithFixtures seeds; a failing test still stops its emulator and removes its data.
    mkdirSync(path.join(project, "checks"));
    writeFileSync(path.join(project, "checks", "seed.json"), SEED);
    writeFileSync(path.join(project, "checks", "checks_test.go"), GO_CHECKS);
    const failing = await exec("go", ["test", "-count=1", "-v", "./checks"], { cwd: project, env }).then(
      () => ({ code: 0, stdout: "" }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/--- PASS: TestSeeded/);
    expect(failing.stdout).toMatch(/--- FAIL: TestFailsOnPurpose/);
    const vet = await exec("go", ["vet", "github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv/irvtest"], {
      cwd: project,
      env,
    });
    expect(vet.stderr).toBe("");
    expect(processesOf(path.join(emulatorBin, "irv-emulator"))).toEqual([]);
    expect(leftovers(tmp)).toEqual([]);
  });
});
