// The Python SDK as a Python team uses it: the wheel built from generated-sdks/python installed with pip into a
// fresh virtualenv (from the cached wheelhouse, offline), the quickstart type-checked with mypy, then run
// by the real engine (through our test-only Python language host and the packaged plugin) against the
// emulator: up, a one-field edit, refresh and destroy; and a Config.require_secret input kept secret.
// The program declaring issue 45's kinds (test/e2e/fixtures/python-pull-token-presets) is type-checked
// here too; pull-token-presets.test.ts runs it.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPythonWheel, installedDistributions } from "../../../scripts/python-sdk.ts";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir, pulumiBinDir, summary } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { seedAdvisory, startTestEmulator } from "../support/irv-emulator.js";
import { expectOnePatchEdit } from "../support/one-field-edit.js";
import { orgSnapshot } from "../support/org-snapshot.js";
import type { PythonProject, PythonToolchain } from "../support/python-project.js";
import { createPythonProject, preparePythonToolchain } from "../support/python-project.js";

const root = path.resolve(import.meta.dirname, "../../..");
const ISSUER = "https://token.actions.githubusercontent.com";
const CLIENT_SECRET = "sso-client-secret-3b9e41a7";

describe("the Python SDK (pulumi_irv wheel) in a fresh virtualenv", () => {
  let py: PythonToolchain;
  let qs: PythonProject;
  let irv: TestEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    py = await preparePythonToolchain(pulumiBinDir());
    qs = createPythonProject(path.join(root, "examples", "quickstart-python"), py, [py.wheel]);
    irv = await startTestEmulator();
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
    qs?.dispose();
  });

  it("installs from the wheel with pip --no-index, pulling pulumi and nothing else of ours", () => {
    expect(path.basename(py.wheel)).toBe(`pulumi_irv-${py.version}-py3-none-any.whl`);
    expect(qs.installLog).toContain(`pulumi-irv-${py.version}`);
    // The sdist beside it carries the same package data (the plugin declaration, the typing marker).
    const sdist = spawnSync("tar", ["tzf", py.sdist], { encoding: "utf8" }).stdout.split("\n");
    expect(sdist).toEqual(
      expect.arrayContaining([
        `pulumi_irv-${py.version}/pulumi_irv/pulumi-plugin.json`,
        `pulumi_irv-${py.version}/pulumi_irv/py.typed`,
        `pulumi_irv-${py.version}/pyproject.toml`,
      ]),
    );
    const byName = installedDistributions(qs.python);
    expect(byName.get("pulumi-irv")).toBe(py.version);
    expect(byName.get("pulumi")).toBe("3.259.0");
    expect([...byName.keys()].filter((n) => n.includes("irv"))).toEqual(["pulumi-irv"]);
    // The package tells the engine which plugin it needs, at the one project version.
    const pluginJson = spawnSync(
      qs.python,
      [
        "-c",
        "import importlib.resources as r; print(r.files('pulumi_irv').joinpath('pulumi-plugin.json').read_text())",
      ],
      { encoding: "utf8" },
    );
    // …and where the engine downloads it on first use: this repository's GitHub releases.
    expect(JSON.parse(pluginJson.stdout)).toEqual({
      resource: true,
      name: "irv",
      version: py.version,
      server: "github://api.github.com/pulumi-irv/pulumi-irv",
    });
  });

  // Regression (issue 47): the wheel's SOURCE_DATE_EPOCH was the newest SDK file's time (a fresh
  // clone's or a release's regenerated SDK: the build's own), and setuptools' sdist carried the
  // staged files' times, the builder's user and gzip's time, so no two builds gave the same bytes.
  it("builds the same wheel and sdist, byte for byte, from the same sources at another time", async () => {
    const dirs = [
      mkdtempSync(path.join(tmpdir(), "irv-py-a-")),
      mkdtempSync(path.join(tmpdir(), "irv-py-b-")),
    ];
    try {
      const sums: Record<string, string>[] = [];
      for (const outDir of dirs) {
        const made = await buildPythonWheel({ outDir });
        sums.push(
          Object.fromEntries(
            [made.wheel, made.sdist].map((f) => [
              path.basename(f),
              createHash("sha256").update(readFileSync(f)).digest("hex"),
            ]),
          ),
        );
      }
      expect(Object.keys(sums[0] ?? {})).toHaveLength(2);
      expect(sums[1]).toEqual(sums[0]);
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  });

  it("type-checks the quickstart under mypy --strict, and names a misspelt keyword argument", () => {
    qs.pip(["mypy"]);
    const mypy = (file: string) =>
      spawnSync(qs.python, ["-m", "mypy", "--strict", file], { cwd: qs.dir, encoding: "utf8" });
    const good = mypy("__main__.py");
    expect(good.stdout + good.stderr).toContain("Success: no issues found in 1 source file");
    expect(good.status).toBe(0);

    const source = readFileSync(path.join(qs.dir, "__main__.py"), "utf8");
    writeFileSync(
      path.join(qs.dir, "wrong.py"),
      source.replace('description="Platform engineering"', 'descripton="Platform engineering"'),
    );
    const bad = mypy("wrong.py");
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(
      /wrong\.py:\d+: error: Unexpected keyword argument "descripton" for .*"Group"/,
    );
  });

  it("type-checks issue 45's kinds under mypy --strict (the program of pull-token-presets.test.ts), and names a misspelt keyword argument of one", () => {
    qs.pip(["mypy"]);
    const source = readFileSync(path.join(fixtureDir("python-pull-token-presets"), "__main__.py"), "utf8");
    const mypy = (file: string, text: string) => {
      writeFileSync(path.join(qs.dir, file), text);
      return spawnSync(qs.python, ["-m", "mypy", "--strict", file], { cwd: qs.dir, encoding: "utf8" });
    };
    const good = mypy("registry_kinds.py", source);
    expect(good.stdout + good.stderr).toContain("Success: no issues found in 1 source file");
    expect(good.status).toBe(0);
    const wrong = source.replace('external_group_id="admins"', 'external_group="admins"');
    expect(wrong).not.toBe(source);
    const bad = mypy("wrong_kinds.py", wrong);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(
      /wrong_kinds\.py:\d+: error: Unexpected keyword argument "external_group" for .*"ExternalGroupRoleMapping"/,
    );
  });

  it("`pulumi up` creates the quickstart's org tree under the native types, the names the logical names", async () => {
    stack = await createStack({ program: qs.dir, config: irv.config, env: py.plugin.env });
    qs.linkVenv(stack);
    await py.plugin.install(stack);
    await irv.resetStats();
    const up = await stack.up();
    expect(diagnostics(up.events, "error")).toEqual([]);
    expect(summary(up.events)?.resourceChanges).toMatchObject({ create: 11 }); // 10 and the stack
    const stats = await irv.stats();
    expect(stats.requests["POST /iam/v2/groups/*"]).toBe(3);
    expect(stats.requests["POST /iam/v2/identities/*"]).toBe(3);
    expect(stats.requests["POST /iam/v2/roleBindings/*"]).toBe(3);
    expect(stats.requests["POST /iam/v2/roles/*"]).toBe(1);

    const outputs = up.outputs as { platformUid: string; teamGroups: Record<string, string> };
    expect(outputs.platformUid).toMatch(new RegExp(`^${irv.emulator.orgUid}/[0-9a-f]{16}$`));
    expect(Object.keys(outputs.teamGroups).sort()).toEqual(["payments", "search"]);
    const claim = (m: Record<string, string>) => JSON.stringify({ issuer: ISSUER, ...m });
    expect(await orgSnapshot(irv.admin, irv.emulator.orgUid)).toEqual({
      groups: [
        "platform/team-payments: The payments team",
        "platform/team-search: The search team",
        "platform: Platform engineering",
      ],
      identities: [
        `platform/platform-release: GitHub Actions of acme/platform on release branches ${claim({ subjectPattern: "repo:acme/platform:ref:refs/heads/release-.+" })}`,
        ...["payments", "search"].map(
          (team) =>
            `platform/team-${team}/${team}-ci: GitHub Actions of acme/${team} on main ${claim({ subject: `repo:acme/${team}:ref:refs/heads/main` })}`,
        ),
      ],
      roles: [
        "platform/release-reader: Reads groups, repos and tags for release workflows advisories.list,groups.list,repo.list,tag.list",
      ],
      bindings: [
        "platform/team-payments: payments-ci → viewer",
        "platform/team-search: search-ci → viewer",
        "platform: platform-release → release-reader",
      ],
    });
    const types = new Set((await stack.resources()).map((r) => r.type));
    expect([...types].sort()).toEqual([
      "irv:iam:Group",
      "irv:iam:Identity",
      "irv:iam:Role",
      "irv:iam:RoleBinding",
    ]);
  });

  it("previews a one-field edit of the program as one update, and applies it with one PATCH", async () => {
    const main = path.join(qs.dir, "__main__.py");
    writeFileSync(main, readFileSync(main, "utf8").replace('"Platform engineering"', '"Platform team"'));
    await expectOnePatchEdit(stack, irv, "Platform engineering", "Platform team");
  });

  it("finds a change made outside Pulumi at refresh", async () => {
    const { platformUid } = (await stack.outputs()) as { platformUid: string };
    await irv.admin.groups.update(platformUid, { description: "changed by hand" });
    const refresh = await stack.refresh();
    expect(summary(refresh.events)?.resourceChanges).toMatchObject({ update: 1 });
    const platform = (await stack.resources()).find((r) => r.urn.endsWith("::platform"));
    expect(platform?.outputs?.description).toBe("changed by hand");
  });

  it("`pulumi destroy` leaves nothing in the organization", async () => {
    await stack.destroy();
    expect(await orgSnapshot(irv.admin, irv.emulator.orgUid)).toEqual({
      groups: [],
      identities: [],
      roles: [],
      bindings: [],
    });
    expect(await stack.resources()).toEqual([]);
  });

  it("keeps a Config.require_secret input (an identity provider's client secret) secret in state and events", async () => {
    const sso = await createStack({
      program: fixtureDir("python-identity-provider"),
      config: { ...irv.config, ssoClientSecret: { value: CLIENT_SECRET, secret: true } },
      env: py.plugin.env,
    });
    try {
      qs.linkVenv(sso);
      await py.plugin.install(sso);
      const up = await sso.up();
      expect(summary(up.events)?.resourceChanges).toMatchObject({ create: 2 }); // with the stack
      const idps = await irv.admin.identityProviders.collect({ descendantsOf: irv.emulator.orgUid });
      expect(idps.map((i) => i.name)).toEqual(["sso"]);
      expect(JSON.stringify(up.events)).not.toContain(CLIENT_SECRET);
      expect(up.stdout + up.stderr).not.toContain(CLIENT_SECRET);
      expect(JSON.stringify(await sso.exportState())).not.toContain(CLIENT_SECRET);
      const decrypted = await sso.exportState({ showSecrets: true });
      const idp = decrypted.deployment.resources?.find((r) => r.type === "irv:iam:IdentityProvider");
      // Decrypted, the value is still marked as a secret (the signature key of a secret in state).
      const oidc = (idp?.inputs as { oidc?: unknown } | undefined)?.oidc;
      expect(JSON.stringify(oidc)).toContain("4dabf18193072939515e22adb298388d");
      expect(JSON.stringify(oidc)).toContain(CLIENT_SECRET);
    } finally {
      await sso.dispose();
    }
  });
  it("reads advisory events typed (issue 38): the fixed and patched versions, a false positive's type and note", async () => {
    await seedAdvisory(irv, irv.emulator.orgUid, {
      artifactName: "log4j",
      aliases: ["CVE-2021-44228"],
      events: [
        { detection: { manual: {} } },
        { fixed: { fixedVersion: "2.15.0-r0", note: "upstream" } },
        { patched: { patchedVersions: ["2.14.1-r1"], note: "backport" } },
        { falsePositiveDetermination: { type: "TYPE_INLINE_MITIGATIONS_EXIST", note: "mitigated" } },
      ],
    });
    const events = await createStack({
      program: fixtureDir("python-advisory-events"),
      config: { ...irv.config },
      env: py.plugin.env,
    });
    try {
      qs.linkVenv(events);
      await py.plugin.install(events);
      const up = await events.up();
      expect(up.outputs).toEqual({
        fixedIn: ["log4j fixed in 2.15.0-r0", "log4j patched in 2.14.1-r1"],
        notAffected: ["TYPE_INLINE_MITIGATIONS_EXIST: mitigated"],
      });
    } finally {
      await events.dispose();
    }
  });
});
