// `pulumi-irv import-org` round trip: an organization of every writable kind made through the API
// (not Pulumi), with names that need escaping (spaces, dots, leading digits, the same name in
// several groups), becomes a generated program whose first `pulumi up` adopts everything without an
// API write, whose preview then shows no change, and where one edit is one PATCH. Group invites are
// listed in the generated README, not generated; an identity provider's client secret is a required
// secret config entry. One group also holds one object of each registry and events kind and a
// mapping on its identity provider, as a Terraform-made organization would (docs/migrating.md).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack } from "../harness/index.js";
import {
  GENERATED_PER_GROUP,
  identityVariant,
  publicJwks,
  secretConfigKeys,
  seedGroupKinds,
  seedRegistryKinds,
} from "../support/adoptable-org.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { runOpsCli } from "../support/ops-cli.js";

// Inside the repository, so the generated program resolves `pulumi-irv` and `typescript` from it.
const GENERATED = fileURLToPath(new URL("../.generated/", import.meta.url));
const TOP = ["payments", "2fa admins", "team.search", "ops", "9lives", "data platform", "web", "mobile"];
const SUB = ["ci", "prod", "staging"];

const writes = (requests: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(requests).filter(([route, n]) => /^(POST|PATCH|DELETE) /.test(route) && n > 0),
  );

describe("pulumi-irv import-org", () => {
  let irv: TestEmulator;
  let stack: TestStack | undefined;
  let workDir: string;
  let objects = 0;
  let registryObjects = 0;
  const env = () => ({
    ...process.env,
    IRV_BASE_URL: irv.emulator.baseUrl,
    IRV_TOKEN: irv.emulator.adminToken,
  });
  const importOrg = (out: string, root = irv.emulator.orgUid) =>
    runOpsCli(["import-org", "--root", root, "--out", out], { env: env() });

  beforeAll(async () => {
    irv = await startTestEmulator();
    mkdirSync(GENERATED, { recursive: true });
    workDir = mkdtempSync(path.join(GENERATED, "import-org-"));
    const admin = irv.admin;
    const org = irv.emulator.orgUid;
    const [viewer, editor] = (await Promise.all(
      ["viewer", "editor"].map(async (name) => (await admin.roles.list({ name })).items[0]?.uid as string),
    )) as [string, string];
    const jwks = await publicJwks();
    // 8 top groups × 3 sub-groups (the same 3 names in each), 3 identities per sub-group (the
    // same names again, cycling through every identity variant), each bound to viewer, the first
    // also to editor, the second also to its top group's custom role; each top group has a custom
    // role, an identity provider, account associations, and every fourth an invite:
    // 32 + 72 + 120 + 24 = 248 generated, 2 invites listed; and the first top group's 7 registry,
    // events and mapping objects.
    await Promise.all(
      TOP.map(async (top, i) => {
        const g = await admin.groups.create(org, {
          name: top,
          ...(i % 2 === 0 ? { description: `the ${top} team` } : {}),
        });
        const deployer = await seedGroupKinds(admin, g.uid, i, viewer);
        if (i === 0) {
          const sso = (await admin.identityProviders.list({ childrenOf: g.uid })).items[0]?.uid as string;
          // Scoped to the organization root: a role grantable there (a group's custom role is not).
          registryObjects = await seedRegistryKinds(admin, org, g.uid, sso, viewer);
        }
        await Promise.all(
          SUB.map(async (sub, j) => {
            const s = await admin.groups.create(g.uid, { name: sub });
            await Promise.all(
              ["deploy bot", "ci.runner", "1st-responder"].map(async (name, k) => {
                const id = await admin.identities.create(s.uid, {
                  name,
                  ...(k === 0 ? { description: "pushes releases" } : {}),
                  ...identityVariant((i * SUB.length + j) * 3 + k, `repo:acme/${top}:${sub}:${k}`, jwks),
                });
                await admin.roleBindings.create(s.uid, { identityUid: id.uid, roleUid: viewer });
                if (k === 0) await admin.roleBindings.create(s.uid, { identityUid: id.uid, roleUid: editor });
                if (k === 1)
                  await admin.roleBindings.create(s.uid, { identityUid: id.uid, roleUid: deployer });
              }),
            );
          }),
        );
      }),
    );
    objects = TOP.length * (1 + GENERATED_PER_GROUP + SUB.length * (1 + 3 + 5)) + registryObjects;
  });

  afterAll(async () => {
    // The invites are not in the program: they would keep their groups from being destroyed.
    if (irv !== undefined)
      for (const invite of await irv.admin.groupInvites.collect({ descendantsOf: irv.emulator.orgUid }))
        await irv.admin.groupInvites.delete(invite.uid);
    await stack?.dispose();
    await irv?.close();
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it("writes the project, with progress on stderr, byte-identical when run again", async () => {
    const first = await importOrg(path.join(workDir, "a"));
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toMatch(/reading groups below/);
    expect(first.stderr).toContain(`${objects} resources`);
    const second = await importOrg(path.join(workDir, "b"));
    expect(second.exitCode).toBe(0);
    const files = readdirSync(path.join(workDir, "a")).sort();
    expect(files).toEqual(["Pulumi.yaml", "README.md", "index.ts", "package.json", "tsconfig.json"]);
    for (const f of files)
      expect(readFileSync(path.join(workDir, "b", f), "utf8"), f).toBe(
        readFileSync(path.join(workDir, "a", f), "utf8"),
      );
    const index = readFileSync(path.join(workDir, "a", "index.ts"), "utf8");
    expect(index.match(/\{ import: "/g)?.length).toBe(objects);
    expect(index).toContain('irv.iam.getRoleOutput({ name: "viewer" })');
  });

  it("lists group invites and the client secrets to set in the generated README", () => {
    const readme = readFileSync(path.join(workDir, "a", "README.md"), "utf8");
    expect(readme).toContain("`irv.iam.GroupInvite`: an invite's code is returned by its create only");
    expect(readme.match(/^- `[0-9a-f/]+`$/gm)?.length).toBe(2);
    const index = readFileSync(path.join(workDir, "a", "index.ts"), "utf8");
    expect(index).not.toContain("GroupInvite");
    for (const kind of ["Role", "IdentityProvider", "AccountAssociations"])
      expect(index.match(new RegExp(`new irv\\.iam\\.${kind}\\(`, "g"))?.length, kind).toBe(TOP.length);
    expect(index).toContain("roleUid: paymentsDeployer.uid");
    for (const variant of ["subjectPattern:", "awsIdentity:", "staticKeys:", "servicePrincipal:"])
      expect(index, variant).toContain(variant);
    expect(secretConfigKeys(index)).toHaveLength(TOP.length);
    for (const key of secretConfigKeys(index))
      expect(readme).toContain(`pulumi config set --secret irv-org:${key} <value>`);
  });

  it("generates repos, tags, overlays, bindings, subscriptions and mappings, each reference a variable", () => {
    const index = readFileSync(path.join(workDir, "a", "index.ts"), "utf8");
    const readme = readFileSync(path.join(workDir, "a", "README.md"), "utf8");
    expect(index).toContain(
      'const debugTools = new irv.registry.Overlay("debug-tools", { parentUid: payments.uid, name: "debug-tools", config: { contents: { packages: ["curl", "jq"] } } }',
    );
    expect(index).toMatch(
      /const app = new irv\.registry\.Repo\("app", \{ parentUid: payments\.uid, name: "app", description: "the app image", bundles: \["base"\], aliases: \["app-fips"\] \}/,
    );
    // The source repo is a variable, declared before the repo synced from it.
    expect(index).toMatch(
      /new irv\.registry\.Repo\("app-mirror", \{ parentUid: payments\.uid, name: "app-mirror", (description: "the app image", )?syncConfig: \{ source: app\.uid, amazon: "123456789012\.dkr\.ecr\.us-east-1\.amazonaws\.com\/app" \}, customOverlay: \{ contents: \{ packages: \["bash"\] \}, environment: \{ TZ: "UTC" \} \} \}/,
    );
    expect(index.indexOf("const app =")).toBeLessThan(index.indexOf('"app-mirror"'));
    expect(index).toContain(
      'new irv.registry.Tag("app-latest", { repoUid: app.uid, name: "latest", digest: "sha256:0000000000000000000000000000000000000000000000000000000000000001" }',
    );
    expect(index).toContain(
      'new irv.registry.OverlayBinding("app-debug-tools", { repoUid: app.uid, overlay: debugTools.uid, tags: ["latest"] }',
    );
    expect(index).toContain(
      'new irv.events.Subscription("hooks-example-com-irv-events", { parentUid: payments.uid, sink: "https://hooks.example.com/irv/events" }',
    );
    expect(index).toContain(
      'new irv.iam.ExternalGroupRoleMapping("sso-platform-admins", { identityProviderUid: paymentsSso.uid, externalGroupId: "platform-admins", roleUid: viewerRole.uid, scope: rootUid }',
    );
    expect(index).not.toContain("readme:");
    expect(readme).toContain("A repo's README is not generated");
  });

  it("adopts everything on the first up with no API write, then previews no change", async () => {
    const index = readFileSync(path.join(workDir, "a", "index.ts"), "utf8");
    const secrets = Object.fromEntries(
      secretConfigKeys(index).map((k) => [k, { value: `set-by-the-user-${k}`, secret: true }]),
    );
    stack = await createStack({ program: path.join(workDir, "a"), config: { ...irv.config, ...secrets } });
    await irv.resetStats();
    await stack.up();
    expect(writes((await irv.stats()).requests)).toEqual({});
    expect((await stack.resources()).length).toBe(objects);
    await stack.preview({ args: ["--expect-no-changes"] });
  });

  it("turns one edit of the generated code into one PATCH", async () => {
    const file = path.join(workDir, "a", "index.ts");
    const index = readFileSync(file, "utf8");
    expect(index).toContain('description: "the payments team"');
    writeFileSync(file, index.replace('description: "the payments team"', 'description: "payments, edited"'));
    await irv.resetStats();
    await stack?.up();
    expect(writes((await irv.stats()).requests)).toEqual({ "PATCH /iam/v2/groups/*": 1 });
    const payments = (await irv.admin.groups.list({ childrenOf: irv.emulator.orgUid, name: "payments" }))
      .items[0];
    expect(payments?.description).toBe("payments, edited");
  });

  // Runs last: the identity, role and binding it makes sit in the organization adopted above.
  it("fails naming the root, writing nothing, when the caller may not read it or it does not exist", async () => {
    const org = irv.emulator.orgUid;
    const admin = irv.admin;
    const subject = "repo:acme/reader:ref:refs/heads/main";
    const reposOnly = await admin.roles.create(org, { name: "repos-only", capabilities: ["repo.list"] });
    const reader = await admin.identities.create(org, {
      name: "repos reader",
      claimMatch: { issuer: irv.emulator.issuerUrl, subject },
    });
    await admin.roleBindings.create(org, { identityUid: reader.uid, roleUid: reposOnly.uid });
    // The reader's own workload identity, not the admin token.
    const { IRV_TOKEN: _, ...base } = process.env;
    const readerEnv = {
      ...base,
      IRV_BASE_URL: irv.emulator.baseUrl,
      IRV_AUTH_URL: irv.emulator.authUrl,
      IRV_IDENTITY: reader.uid,
      IRV_IDENTITY_TOKEN: await irv.emulator.mintIdentityToken({ subject }),
    };
    const denied = path.join(workDir, "denied");
    const r = await runOpsCli(["import-org", "--root", org, "--out", denied], { env: readerEnv });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`the caller may not read the root group ${org}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(denied)).toBe(false);

    const missing = `${org}/0123456789abcdef`;
    const out = path.join(workDir, "missing");
    const m = await importOrg(out, missing);
    expect(m.exitCode).toBe(1);
    expect(m.stderr).toContain(`the root group ${missing} does not exist`);
    expect(existsSync(out)).toBe(false);
  });
});
