// examples/readme and examples/readme-iam — the README's resource and data-source snippets — on the
// real engine, including the import snippet.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { seedAdvisory, seedRepo, startTestEmulator } from "../support/irv-emulator.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("the README's program snippets", () => {
  let irv: TestEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    irv = await startTestEmulator();
    await seedRepo(irv, irv.emulator.orgUid, "app");
    await seedAdvisory(irv, irv.emulator.orgUid, { aliases: ["CVE-2021-44228"], artifactName: "log4j" });
    await seedAdvisory(irv, irv.emulator.orgUid, { aliases: ["CVE-2026-1"], artifactName: "app" });
    const legacy = await irv.admin.groups.create(irv.emulator.orgUid, { name: "legacy" });
    stack = await createStack({
      program: path.join(root, "examples", "readme"),
      config: { ...irv.config, legacyUid: legacy.uid },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("runs as written: resources, data sources and an import", async () => {
    const { outputs } = await stack.up();
    expect(outputs).toMatchObject({
      log4shellArtifacts: ["log4j"],
      repoNames: ["app"],
      roles: [
        "apk.pull",
        "editor",
        "limited_owner",
        "owner",
        "registry.pull",
        "registry.pull_token_creator",
        "viewer",
      ],
    });
    expect(String(outputs?.owner)).toMatch(/built-in/i);
    expect(
      (await irv.admin.groups.collect({ childrenOf: irv.emulator.orgUid, orderBy: "name" })).map(
        (g) => g.name,
      ),
    ).toEqual(["legacy", "platform"]);
  });
});

describe("the README's snippets of the IAM kinds", () => {
  let irv: TestEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    irv = await startTestEmulator();
    stack = await createStack({
      program: path.join(root, "examples", "readme-iam"),
      config: { ...irv.config, ssoClientSecret: { value: "readme-sso-secret", secret: true } },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("runs as written: a custom role read back with get, identity variants, an IdP, an invite, account associations", async () => {
    const { outputs } = await stack.up();
    expect(outputs?.auditorCapabilities).toEqual(["groups.list", "identity.list", "role_bindings.list"]);
    expect(outputs?.inviteCode).toMatch(/.+/);
    const deploy = await irv.admin.identities.get(outputs?.deployUid as string);
    expect(deploy.claimMatch?.subjectPattern).toBe("repo:acme/payments:environment:(staging|production)");
    expect((await irv.admin.identities.get(outputs?.backupUid as string)).awsIdentity?.awsAccount).toBe(
      "123456789012",
    );
    expect((await irv.admin.identityProviders.get(outputs?.ssoUid as string)).oidc.issuer).toBe(
      "https://login.example.com",
    );
    // A public client: PKCE and no client secret.
    expect((await irv.admin.identityProviders.get(outputs?.cliLoginUid as string)).oidc).toMatchObject({
      clientId: "irv-cli",
      pkceEnabled: true,
    });
    await stack.destroy();
  });
});

describe("the pull tokens guide's snippets", () => {
  let irv: TestEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    irv = await startTestEmulator();
    stack = await createStack({ program: path.join(root, "examples", "pull-tokens"), config: irv.config });
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("runs as written: a pull token with rotation and one holding apk.pull", async () => {
    const { outputs } = await stack.up();
    const apkPull = (await irv.admin.roles.list({ name: "apk.pull" })).items[0];
    expect(outputs?.apkPullRole).toBe(apkPull?.uid);
    const docker = JSON.parse(String(outputs?.dockerConfigJson)) as {
      auths: Record<string, { username: string }>;
    };
    expect(docker.auths["cgr.dev"]?.username).toBe(outputs?.pullUsername);
    await stack.destroy();
    expect((await irv.admin.identities.list({ descendantsOf: irv.emulator.orgUid })).items).toEqual([]);
  });
});
