// The Go SDK generated from the schema (generated-sdks/go/irv), as a Go user meets it: examples/quickstart-go
// builds and vets on it from the module cache alone, a type error names the field, and the program
// runs end to end through the engine (our test-only Go language host, scripts/pulumi-language-go) on
// the packaged plugin against the emulator: up makes the org tree, a config edit is one PATCH,
// destroy removes it all. The program declaring issue 45's kinds (test/e2e/fixtures/go-pull-token-presets,
// run by pull-token-presets.test.ts) vets here too.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ensureGoModuleCache,
  GO_SDK_MODULE,
  GO_SDK_MODULE_DIR,
  offlineGoEnv,
} from "../../../scripts/go-sdk.js";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir, pulumiBinDir, summary } from "../harness/index.js";
import { goProgramEnv } from "../support/go-program.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { resourceRoutes, startTestEmulator } from "../support/irv-emulator.js";
import { prepareNativePlugin } from "../support/native-plugin.js";
import { expectOnePatchEdit } from "../support/one-field-edit.js";

const root = path.resolve(import.meta.dirname, "../../..");
const QUICKSTART = path.join(root, "examples", "quickstart-go");
const ISSUER = "https://token.actions.githubusercontent.com";

/** `go ARGS` in `cwd` from the module cache alone; stdout and stderr together. */
function go(cwd: string, ...args: string[]): { status: number | null; output: string } {
  const r = spawnSync("go", args, { cwd, env: offlineGoEnv(), encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}${r.error?.message ?? ""}` };
}

describe("the Go SDK: examples/quickstart-go", () => {
  let work: string;

  beforeAll(async () => {
    await ensureGoModuleCache({ log: (line) => console.error(line) });
    work = mkdtempSync(path.join(tmpdir(), "irv-go-sdk-"));
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it("the generated module builds and vets whole, without a network", () => {
    const build = go(GO_SDK_MODULE_DIR, "build", "./...");
    expect(build.output).toBe("");
    expect(build.status).toBe(0);
    const vet = go(GO_SDK_MODULE_DIR, "vet", "./...");
    expect(vet.output).toBe("");
    expect(vet.status).toBe(0);
  });

  it("builds and vets on the generated module, without a network, its go.mod and go.sum tidy", () => {
    // A regenerated SDK whose requirements moved would leave the example's go.sum behind.
    const tidy = go(QUICKSTART, "mod", "tidy", "-diff");
    expect(tidy.output).toBe("");
    expect(tidy.status).toBe(0);
    const build = go(QUICKSTART, "build", "-o", path.join(work, "quickstart"), ".");
    expect(build.output).toBe("");
    expect(build.status).toBe(0);
    const vet = go(QUICKSTART, "vet", ".");
    expect(vet.output).toBe("");
    expect(vet.status).toBe(0);
  });

  it("fails `go build` naming the field when a copy of the program gets it wrong", () => {
    const copy = path.join(work, "broken");
    cpSync(QUICKSTART, copy, { recursive: true });
    expect(go(copy, "mod", "edit", `-replace=${GO_SDK_MODULE}=${GO_SDK_MODULE_DIR}`).status).toBe(0);
    const main = path.join(copy, "main.go");
    const source = readFileSync(main, "utf8");
    const broken = source
      .replace("ParentUid:   pulumi.String(orgUid),", "Parent:      pulumi.String(orgUid),")
      .replace(
        'Capabilities: pulumi.ToStringArray([]string{"groups.list", "repo.list", "tag.list", "advisories.list"}),',
        'Capabilities: pulumi.String("groups.list"),',
      );
    expect(broken).not.toBe(source);
    writeFileSync(main, broken);
    const build = go(copy, "build", "-o", path.join(work, "broken-bin"), ".");
    expect(build.status).not.toBe(0);
    expect(build.output).toContain("unknown field Parent in struct literal of type iam.GroupArgs");
    expect(build.output).toMatch(/pulumi\.String\("groups\.list"\).*as pulumi\.StringArrayInput value/);
  });

  it("vets issue 45's kinds (the program of pull-token-presets.test.ts), and names a nested field a copy gets wrong", () => {
    const program = fixtureDir("go-pull-token-presets");
    const vet = go(program, "vet", ".");
    expect(vet.output).toBe("");
    expect(vet.status).toBe(0);
    const copy = path.join(work, "kinds-broken");
    cpSync(program, copy, { recursive: true });
    expect(go(copy, "mod", "edit", `-replace=${GO_SDK_MODULE}=${GO_SDK_MODULE_DIR}`).status).toBe(0);
    const main = path.join(copy, "main.go");
    const source = readFileSync(main, "utf8");
    const broken = source.replace("Source: web.Uid,", "Src:    web.Uid,");
    expect(broken).not.toBe(source);
    writeFileSync(main, broken);
    const build = go(copy, "build", "-o", path.join(work, "kinds-broken-bin"), ".");
    expect(build.status).not.toBe(0);
    expect(build.output).toContain("unknown field Src in struct literal of type registry.RepoSyncConfigArgs");
  });
});

describe("the Go quickstart on pulumi-resource-irv, through the engine", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let outputs: Record<string, unknown>;

  beforeAll(async () => {
    const plugin = await prepareNativePlugin(pulumiBinDir());
    const env = await goProgramEnv(plugin, pulumiBinDir());
    irv = await startTestEmulator();
    // The engine finds `pulumi-language-go` on PATH; the host builds the program offline.
    stack = await createStack({ program: QUICKSTART, config: irv.config, env });
    await plugin.install(stack);
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("creates the org tree: groups under their parents, CI identities with their claims, bindings to viewer and the custom role", async () => {
    await irv.resetStats();
    const up = await stack.up();
    expect(diagnostics(up.events, "error")).toEqual([]);
    outputs = up.outputs ?? {};
    const stats = await irv.stats();
    expect(resourceRoutes(stats.requests)).toMatchObject({
      "POST /iam/v2/groups/*": 3,
      "POST /iam/v2/identities/*": 3,
      "POST /iam/v2/roles/*": 1,
      "POST /iam/v2/roleBindings/*": 3,
    });

    const orgUid = irv.emulator.orgUid;
    const platformUid = String(outputs.platformUid);
    const teamGroups = outputs.teamGroups as Record<string, string>;
    expect(await irv.admin.groups.get(platformUid)).toMatchObject({
      name: "platform",
      description: "Platform engineering",
    });
    expect(platformUid.startsWith(`${orgUid}/`)).toBe(true);
    const teams = await irv.admin.groups.collect({ childrenOf: platformUid });
    expect(teams.map((g) => [g.name, g.description, g.uid]).sort()).toEqual([
      ["team-payments", "The payments team", teamGroups.payments],
      ["team-search", "The search team", teamGroups.search],
    ]);

    for (const team of ["payments", "search"]) {
      const [ci, ...more] = await irv.admin.identities.collect({ childrenOf: teamGroups[team] ?? "" });
      expect(more).toEqual([]);
      expect(ci).toMatchObject({
        name: `${team}-ci`,
        description: `GitHub Actions of acme/${team} on main`,
        claimMatch: { issuer: ISSUER, subject: `repo:acme/${team}:ref:refs/heads/main` },
      });
    }
    const [release] = await irv.admin.identities.collect({ childrenOf: platformUid });
    expect(release).toMatchObject({
      name: "platform-release",
      claimMatch: { issuer: ISSUER, subjectPattern: "repo:acme/platform:ref:refs/heads/release-.+" },
    });
    // The built-in roles are listed under every group too: find the custom one by name.
    const roles = await irv.admin.roles.collect({ childrenOf: platformUid });
    const role = roles.find((r) => r.name === "release-reader");
    // The API keeps capabilities in its own order.
    expect(role?.capabilities.slice().sort()).toEqual([
      "advisories.list",
      "groups.list",
      "repo.list",
      "tag.list",
    ]);

    const bindings = await irv.admin.roleBindings.collect({ descendantsOf: orgUid });
    expect(bindings.map((b) => `${b.group.name}: ${b.identity.name} → ${b.role.name}`).sort()).toEqual([
      "platform: platform-release → release-reader",
      "team-payments: payments-ci → viewer",
      "team-search: search-ci → viewer",
    ]);
  });

  it("previews a description changed through config as one update, and applies it with one PATCH", async () => {
    await stack.setConfig({ platformDescription: "Platform team" });
    await expectOnePatchEdit(stack, irv, "Platform engineering", "Platform team");
    expect((await irv.admin.groups.get(String(outputs.platformUid))).description).toBe("Platform team");
  });

  it("finds a change made outside Pulumi at refresh, and the next up puts the declared value back", async () => {
    const platformUid = String(outputs.platformUid);
    await irv.admin.groups.update(platformUid, { description: "changed by hand" });
    await stack.refresh();
    expect(await stack.outputs()).toMatchObject({ platformUid });
    const preview = await stack.preview();
    expect(summary(preview.events)?.resourceChanges).toMatchObject({ update: 1 });
    await stack.up();
    expect((await irv.admin.groups.get(platformUid)).description).toBe("Platform team");
  });

  it("destroys everything it made", async () => {
    await irv.resetStats();
    await stack.destroy();
    expect(resourceRoutes((await irv.stats()).requests)).toMatchObject({
      "DELETE /iam/v2/groups/*": 3,
      "DELETE /iam/v2/identities/*": 3,
      "DELETE /iam/v2/roles/*": 1,
      "DELETE /iam/v2/roleBindings/*": 3,
    });
    const orgUid = irv.emulator.orgUid;
    const [groups, identities, roles, bindings] = await Promise.all([
      irv.admin.groups.collect({ descendantsOf: orgUid }),
      irv.admin.identities.collect({ descendantsOf: orgUid }),
      irv.admin.roles.collect({ descendantsOf: orgUid }),
      irv.admin.roleBindings.collect({ descendantsOf: orgUid }),
    ]);
    expect({ groups, identities, bindings }).toEqual({ groups: [], identities: [], bindings: [] });
    // Built-in roles (viewer…) are the emulator's own; no custom role is left.
    expect(roles.map((r) => r.name)).not.toContain("release-reader");
    expect(await stack.resources()).toEqual([]);
  });
});
