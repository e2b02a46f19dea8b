// The native plugin end to end on the real Pulumi YAML language host (built from the Go module
// github.com/pulumi/pulumi-yaml, see docs/toolchain.md): the packaged plugin installed with
// `pulumi plugin install resource irv <v> --file` into the stack's fresh PULUMI_HOME, a YAML
// program against the emulator through preview, up, a one-field edit, refresh after drift, and
// destroy, with the emulator's counters proving the API calls. The program declares issue 45's kinds
// too (two repos, one synced with a custom overlay, a tag, an overlay bound to a repo, a subscription
// and an external group mapping), and one object of each is adopted with `pulumi import --file`.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { DriftJson } from "../../../provider/cli/drift-render.js";
import { importOrg } from "../../../provider/cli/import-org.js";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir, pulumiBinDir, summary } from "../harness/index.js";
import { identityVariant, publicJwks, seedGroupKinds } from "../support/adoptable-org.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { resourceRoutes, seedAdvisory, startTestEmulator } from "../support/irv-emulator.js";
import type { NativePlugin } from "../support/native-plugin.js";
import { prepareNativePlugin } from "../support/native-plugin.js";
import { expectOnePatchEdit } from "../support/one-field-edit.js";
import { runOpsCli } from "../support/ops-cli.js";

const CLIENT_SECRET = "sso-client-secret-7d1f0c2e";

describe("a Pulumi YAML program on pulumi-resource-irv", () => {
  let irv: TestEmulator;
  let second: TestEmulator;
  let stack: TestStack;
  let outputs: Record<string, string>;
  let plugin: NativePlugin;

  beforeAll(async () => {
    plugin = await prepareNativePlugin(pulumiBinDir());
    [irv, second] = await Promise.all([startTestEmulator(), startTestEmulator()]);
    stack = await createStack({
      program: fixtureDir("yaml-program"),
      config: {
        ...irv.config,
        ssoClientSecret: { value: CLIENT_SECRET, secret: true },
        secondBaseUrl: second.emulator.baseUrl,
        secondToken: { value: second.emulator.adminToken, secret: true },
        secondOrgUid: second.emulator.orgUid,
      },
      env: plugin.env,
    });
    // The packaged plugin, as a user installs it: nothing in the project points at the repository.
    await plugin.install(stack);
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
    await second?.close();
  });

  it("previews every resource as a create and reads the role through the irv:iam:getRole invoke", async () => {
    await irv.resetStats();
    const preview = await stack.preview();
    expect(diagnostics(preview.events, "error")).toEqual([]);
    expect(summary(preview.events)?.resourceChanges).toMatchObject({ create: 19 });
    // A preview calls no resource route: only the lookup reads the API.
    expect(resourceRoutes((await irv.stats()).requests)).toEqual({});
  });

  it("creates them with one POST each, under the native type tokens, the name defaulting to the logical name", async () => {
    await irv.resetStats();
    const up = await stack.up();
    outputs = up.outputs as Record<string, string>;
    const stats = await irv.stats();
    expect(stats.requests["POST /iam/v2/groups/*"]).toBe(2); // the third is in the second emulator
    expect(stats.requests["POST /iam/v2/roleBindings/*"]).toBe(1);
    expect(stats.requests["POST /iam/v2/identityProviders/*"]).toBe(1);
    expect(stats.requests["POST /iam/v2/identities/*"]).toBe(2);
    expect(stats.requests["POST /iam/v2/roles/*"]).toBe(1);
    expect(stats.requests["POST /iam/v2/groupInvites/*"]).toBe(1);
    expect(stats.requests["POST /iam/v2/accountAssociations/*"]).toBe(1);
    // Issue 45's kinds, one POST each (and a repo's README read after its create).
    expect(resourceRoutes(stats.requests)).toMatchObject({
      "POST /registry/v2/repos/*": 2,
      "GET /registry/v2/repos/*": 2,
      "POST /registry/v2/tags/*": 1,
      "POST /registry/v2beta1/overlays/*": 1,
      "POST /registry/v2beta1/overlayBindings/*": 1,
      "POST /events/v2/subscriptions/*": 1,
      "POST /iam/v2/externalGroupRoleMappings/*": 1,
    });
    const mirror = await irv.admin.repos.get(outputs.mirrorUid ?? "");
    expect(mirror).toMatchObject({
      name: "web-mirror",
      bundles: ["base"],
      sync_config: { source: outputs.webUid, amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/web" },
      customOverlay: { contents: { packages: ["curl"] }, environment: { TZ: "UTC" } },
    });
    expect(outputs.boundOverlay).toBe("tools");
    expect(outputs.mappingScope).toBe(irv.emulator.orgUid);
    expect((await irv.admin.tags.collect({ childrenOf: outputs.webUid ?? "" })).map((t) => t.uid)).toEqual([
      outputs.tagUid,
    ]);
    expect(outputs.deployerName).toBe("deployer");
    expect(await irv.admin.groups.get(outputs.platformUid ?? "")).toMatchObject({
      name: "platform",
      description: "Platform engineering",
    });
    expect(outputs.paymentsName).toBe("team-payments");
    expect(outputs.bindingRole).toBe("viewer");
    const types = (await stack.resources()).map((r) => r.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "irv:iam:Group",
        "irv:iam:Identity",
        "irv:iam:RoleBinding",
        "irv:iam:IdentityProvider",
      ]),
    );
  });

  it("creates the group of an explicit provider (pulumi:providers:irv) in the second organization", async () => {
    const partners = await second.admin.groups.get(outputs.partnersUid ?? "");
    expect(partners).toMatchObject({ name: "partners", description: "In the second organization" });
    expect(await irv.admin.groups.find(outputs.partnersUid ?? "")).toBeUndefined();
  });

  it("keeps the API tokens, the client secret and the invite code out of the state, and stores no provider code", async () => {
    const decrypted = await stack.exportState({ showSecrets: true });
    const invite = decrypted.deployment.resources?.find((r) => r.type === "irv:iam:GroupInvite");
    // Decrypted, a secret is still marked as one: the code is stored as a secret, not as a string.
    const stored = (invite?.outputs as Record<string, { plaintext?: string }> | undefined)?.code;
    expect(stored?.plaintext).toEqual(expect.any(String));
    const code = JSON.parse(stored?.plaintext ?? "null") as string;
    const state = JSON.stringify(await stack.exportState());
    expect(state).not.toContain(code);
    expect(state).not.toContain(irv.emulator.adminToken);
    expect(state).not.toContain(second.emulator.adminToken);
    expect(state).not.toContain(CLIENT_SECRET);
    expect(state).not.toContain("__provider");
    const withSecrets = JSON.stringify(await stack.exportState({ showSecrets: true }));
    expect(withSecrets).toContain(CLIENT_SECRET);
  });

  it("previews a one-field edit as one update naming the field, and applies it with one PATCH", async () => {
    await stack.setConfig({ platformDescription: "Platform team" });
    await expectOnePatchEdit(stack, irv, "Platform engineering", "Platform team");
  });

  it("finds a change made outside Pulumi at refresh, and the next up puts the declared value back", async () => {
    await irv.admin.groups.update(outputs.platformUid ?? "", { description: "changed by hand" });
    await stack.refresh();
    const preview = await stack.preview();
    expect(summary(preview.events)?.resourceChanges).toMatchObject({ update: 1 });
    await stack.up();
    expect((await irv.admin.groups.get(outputs.platformUid ?? "")).description).toBe("Platform team");
  });

  // Issue 46: drift reads a YAML program's state on the plugin (native type tokens, the explicit
  // provider of a second organization) as it reads a TypeScript program's.
  it("pulumi-irv drift reports a description edited, an owner binding and a group made by hand, and nothing of the second organization", async () => {
    const platform = outputs.platformUid ?? "";
    const payments = outputs.paymentsUid ?? "";
    const [ci] = await irv.admin.identities.collect({ childrenOf: payments, name: "paymentsCi" });
    const [owner] = await irv.admin.roles.collect({ name: "owner" });
    await irv.admin.groups.update(
      platform,
      { description: "edited by hand" },
      { updateMask: ["description"] },
    );
    const binding = await irv.admin.roleBindings.create(payments, {
      identityUid: ci?.uid ?? "",
      roleUid: owner?.uid ?? "",
    });
    const rogue = await irv.admin.groups.create(platform, { name: "rogue" });
    try {
      const args = ["drift", "--stack", stack.stackName, "--cwd", stack.projectDir, "--format", "json"];
      const r = await runOpsCli([...args, "--fail-on", "risky"], { env: stack.env });
      expect([r.exitCode, r.stderr]).toEqual([1, ""]);
      const doc = JSON.parse(r.stdout) as DriftJson;
      expect(doc.findings.map((f) => [f.state, f.className, f.name, f.risky])).toEqual([
        ["changed", "Group", "platform", false],
        ["unmanaged", "Group", "rogue", false],
        ["unmanaged", "RoleBinding", binding.uid, true],
      ]);
      expect(doc.findings[0]?.fields).toEqual([
        { field: "description", code: "Platform team", live: "edited by hand" },
      ]);
      // The second organization's group, through its explicit provider: not read, and said so.
      expect(doc.read.notRead).toEqual([
        { urn: expect.stringMatching(/::irv:iam:Group::partners$/), provider: "secondOrg" },
      ]);
      expect(doc.summary).toMatch(/ Not read: 1 resource managed through explicit providers \(secondOrg\)/);
    } finally {
      await irv.admin.groups.delete(rogue.uid);
      await irv.admin.roleBindings.delete(binding.uid);
      await irv.admin.groups.update(
        platform,
        { description: "Platform team" },
        { updateMask: ["description"] },
      );
    }
  });

  it("adopts a group made through the API with `pulumi import irv:iam:Group`, writing its YAML", async () => {
    const made = await irv.admin.groups.create(irv.emulator.orgUid, {
      name: "made-by-hand",
      description: "From the API",
    });
    await irv.resetStats();
    const imported = await stack.run([
      "import",
      "irv:iam:Group",
      "madeByHand",
      made.uid,
      "--yes",
      "--protect=false",
      "--stack",
      stack.stackName,
    ]);
    // Reads only (the import's preview and the import itself), nothing created: the uid is the import id.
    expect(Object.keys(resourceRoutes((await irv.stats()).requests))).toEqual(["GET /iam/v2/groups/*"]);
    expect(imported.stdout).toContain("type: irv:iam:Group");
    expect(imported.stdout).toContain("name: made-by-hand");
    expect(imported.stdout).toContain(`parentUid: ${irv.emulator.orgUid}`);
    const adopted = (await stack.resources()).find((r) => r.urn.endsWith("::madeByHand"));
    expect(adopted?.id).toBe(made.uid);
  });

  it("adopts a whole subtree with import-org --format pulumi-import and `pulumi import --file`", async () => {
    const tree = await irv.admin.groups.create(irv.emulator.orgUid, { name: "legacy" });
    const child = await irv.admin.groups.create(tree.uid, { name: "legacy-team" });
    const out = mkdtempSync(path.join(os.tmpdir(), "irv-import-file-"));
    try {
      await importOrg({
        root: tree.uid,
        out,
        format: "pulumi-import",
        client: irv.admin,
        progress: () => {},
      });
      await irv.resetStats();
      const imported = await stack.run([
        "import",
        "--file",
        path.join(out, "import.json"),
        "--yes",
        "--protect=false",
        "--stack",
        stack.stackName,
      ]);
      expect(imported.stdout).toContain("name: legacy-team");
      expect(Object.keys(resourceRoutes((await irv.stats()).requests))).toEqual(["GET /iam/v2/groups/*"]);
      const ids = (await stack.resources()).map((r) => r.id);
      expect(ids).toEqual(expect.arrayContaining([child.uid]));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("adopts a subtree of every kind with the YAML program import-org --language yaml writes, then previews no change", async () => {
    const { admin, emulator } = irv;
    const viewer = (await admin.roles.list({ name: "viewer" })).items[0]?.uid as string;
    const tree = await admin.groups.create(emulator.orgUid, { name: "yaml-adopted" });
    const team = await admin.groups.create(tree.uid, { name: "team one", description: "From the API" });
    // A custom role, an identity provider (its client secret write-only), account associations.
    const deployer = await seedGroupKinds(admin, team.uid, 1, viewer);
    const jwks = await publicJwks();
    for (let n = 0; n < 5; n++) {
      const id = await admin.identities.create(team.uid, {
        name: `bot ${n}`,
        ...identityVariant(n, `repo:acme/yaml:${n}`, jwks),
      });
      await admin.roleBindings.create(team.uid, { identityUid: id.uid, roleUid: n % 2 ? viewer : deployer });
    }
    const out = mkdtempSync(path.join(os.tmpdir(), "irv-import-yaml-"));
    let adopted: TestStack | undefined;
    try {
      await importOrg({ root: tree.uid, out, language: "yaml", client: admin, progress: () => {} });
      const program = parse(readFileSync(path.join(out, "Pulumi.yaml"), "utf8")) as {
        config?: Record<string, unknown>;
      };
      // The one write-only value: the identity provider's client secret, set as the README says.
      expect(Object.keys(program.config ?? {})).toEqual(["ssoClientSecret"]);
      adopted = await createStack({
        program: out,
        stackName: "adopted",
        config: {
          "irv:baseUrl": emulator.baseUrl,
          "irv:token": { value: emulator.adminToken, secret: true },
          ssoClientSecret: { value: "secret-1", secret: true },
        },
        env: plugin.env,
        // The next test needs the adopted subtree gone: the finally below destroys it.
        destroyOnDispose: true,
      });
      await plugin.install(adopted);
      await irv.resetStats();
      const up = await adopted.up();
      expect(diagnostics(up.events, "error")).toEqual([]);
      // 1 group + role, identity provider, associations + 5 identities + 5 bindings, all imported.
      expect(summary(up.events)?.resourceChanges).toMatchObject({ import: 14 });
      const writes = Object.keys(resourceRoutes((await irv.stats()).requests)).filter(
        (r) => !r.startsWith("GET "),
      );
      expect(writes).toEqual([]);
      const preview = await adopted.preview({ args: ["--expect-no-changes"] });
      expect(summary(preview.events)?.resourceChanges).toEqual({ same: 15 });
    } finally {
      // Destroys what it adopted; the root of the subtree was never managed.
      await adopted?.dispose();
      await admin.groups.delete(tree.uid);
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("adopts one object of each of issue 45's kinds with `pulumi import --file` (import-org --format pulumi-import), the code it writes previewing no change", async () => {
    const { admin, emulator } = irv;
    const viewer = (await admin.roles.list({ name: "viewer" })).items[0]?.uid as string;
    const tree = await admin.groups.create(emulator.orgUid, { name: "registry-adopted" });
    const site = await admin.repos.create(tree.uid, { name: "site", bundles: ["base"], aliases: ["www"] });
    await admin.repos.create(tree.uid, {
      name: "site-mirror",
      sync_config: { source: site.uid, google: "us-docker.pkg.dev/acme/site" },
      customOverlay: { contents: { packages: ["curl"] }, environment: { TZ: "UTC" } },
    });
    await admin.tags.create(site.uid, { name: "v1", digest: `sha256:${"2".repeat(64)}` });
    const overlay = await admin.overlays.create(tree.uid, {
      name: "tools",
      config: { contents: { packages: ["jq"] } },
    });
    await admin.overlayBindings.create(site.uid, { overlay: overlay.uid, tags: ["v1"] });
    await admin.subscriptions.create(tree.uid, { sink: "https://hooks.example.com/adopted" });
    const okta = await admin.identityProviders.create(tree.uid, {
      name: "okta",
      defaultRole: viewer,
      oidc: { issuer: "https://okta.example.com", clientId: "irv", pkceEnabled: true },
    });
    await admin.externalGroupRoleMappings.create(okta.uid, {
      externalGroupId: "admins",
      roleUid: viewer,
      scope: emulator.orgUid,
    });
    // A YAML project with no resources yet, beside the import file. `pulumi import --out` writes the
    // program elsewhere (it empties its --out file before it runs, and the host reads Main.yaml).
    const out = mkdtempSync(path.join(os.tmpdir(), "irv-import-kinds-"));
    const program = path.join(out, "program");
    mkdirSync(program);
    writeFileSync(path.join(program, "Pulumi.yaml"), "name: registry-adopted\nruntime: yaml\n");
    writeFileSync(path.join(program, "Main.yaml"), "resources: {}\n");
    let adopted: TestStack | undefined;
    try {
      await importOrg({ root: tree.uid, out, format: "pulumi-import", client: admin, progress: () => {} });
      const file = JSON.parse(readFileSync(path.join(out, "import.json"), "utf8")) as {
        resources: { type: string }[];
      };
      expect(file.resources.map((r) => r.type).sort()).toEqual([
        "irv:events:Subscription",
        "irv:iam:ExternalGroupRoleMapping",
        "irv:iam:IdentityProvider",
        "irv:registry:Overlay",
        "irv:registry:OverlayBinding",
        "irv:registry:Repo",
        "irv:registry:Repo",
        "irv:registry:Tag",
      ]);
      adopted = await createStack({
        program,
        stackName: "kinds",
        config: {
          "irv:baseUrl": emulator.baseUrl,
          "irv:token": { value: emulator.adminToken, secret: true },
        },
        env: plugin.env,
      });
      await plugin.install(adopted);
      await irv.resetStats();
      const imported = await adopted.run([
        ...["import", "--file", path.join(out, "import.json"), "--out", path.join(out, "imported.yaml")],
        ...["--yes", "--protect=false", "--stack", adopted.stackName],
      ]);
      expect(imported.stderr).not.toMatch(/error/i);
      // The code Pulumi wrote becomes the program, as a user pastes it.
      copyFileSync(path.join(out, "imported.yaml"), path.join(program, "Main.yaml"));
      const writes = Object.keys(resourceRoutes((await irv.stats()).requests)).filter(
        (r) => !r.startsWith("GET "),
      );
      expect(writes).toEqual([]);
      expect((await adopted.resources()).map((r) => r.type).filter((t) => t.startsWith("irv:"))).toHaveLength(
        8,
      );
      const preview = await adopted.preview({ args: ["--expect-no-changes"] });
      expect(summary(preview.events)?.resourceChanges).toEqual({ same: 9 });
      // The next test needs the subtree gone. The generated code names parents by literal uids, so
      // nothing orders the deletes for the engine: the provider waits for a repo's or an identity
      // provider's children itself.
      const destroyed = await adopted.destroy();
      expect(diagnostics(destroyed.events, "error")).toEqual([]);
      await admin.groups.delete(tree.uid);
    } finally {
      await adopted?.dispose();
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("destroys the tree children first, leaving only what it never managed", async () => {
    const destroy = await stack.destroy();
    expect(diagnostics(destroy.events, "error")).toEqual([]);
    expect(await irv.admin.groups.find(outputs.platformUid ?? "")).toBeUndefined();
    // Only the root of the imported subtree is left: import-org adopts what is below a root, not the root.
    const left = (await irv.admin.groups.list({ childrenOf: irv.emulator.orgUid })).items.map((g) => g.name);
    expect(left).toEqual(["legacy"]);
    expect((await second.admin.groups.list({ childrenOf: second.emulator.orgUid })).items).toEqual([]);
  });
  it("reads advisory events typed through the getAdvisories invoke (issue 38): a fixed version and a false positive's type", async () => {
    const own = await startTestEmulator();
    await seedAdvisory(own, own.emulator.orgUid, {
      artifactName: "log4j",
      aliases: ["CVE-2021-44228"],
      events: [
        { detection: { manual: {} } },
        { fixed: { fixedVersion: "2.15.0-r0", note: "upstream" } },
        { falsePositiveDetermination: { type: "TYPE_COMPONENT_VULNERABILITY_MISMATCH", note: "jar only" } },
      ],
    });
    const events = await createStack({
      program: fixtureDir("yaml-advisory-events"),
      config: { ...own.config },
      env: plugin.env,
    });
    try {
      await plugin.install(events);
      const up = await events.up();
      expect(up.outputs).toEqual({
        fixedVersion: "2.15.0-r0",
        fixedNote: "upstream",
        notAffected: "TYPE_COMPONENT_VULNERABILITY_MISMATCH",
      });
    } finally {
      await events.dispose();
      await own.close();
    }
  });
});
