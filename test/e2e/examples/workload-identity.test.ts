// examples/workload-identity: the program holds no API token. It assumes an identity by presenting
// a workload OIDC token (minted here by the emulator's local issuer) and the provider exchanges it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("examples/workload-identity", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let teamUid: string;
  let workloadToken: string;

  beforeAll(async () => {
    irv = await startTestEmulator();
    const { emulator, admin } = irv;
    // What a platform team sets up once: the team group, the pipeline's identity, a role that may
    // manage groups and identities there (the published `editor` has no IAM write).
    const team = await admin.groups.create(emulator.orgUid, { name: "team-checkout" });
    teamUid = team.uid;
    const pipeline = await admin.identities.create(team.uid, {
      name: "pipeline",
      claimMatch: { issuer: emulator.issuerUrl, subject: "repo:acme/checkout:ref:refs/heads/main" },
    });
    const teamAdmin = await admin.roles.create(team.uid, {
      name: "team-admin",
      capabilities: ["groups", "identity"].flatMap((f) =>
        ["list", "create", "update", "delete"].map((v) => `${f}.${v}`),
      ),
    });
    await admin.roleBindings.create(team.uid, { identityUid: pipeline.uid, roleUid: teamAdmin.uid });
    // What the CI system does: hand the job an OIDC token in a file.
    const minted = await fetch(`${emulator.issuerUrl}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ subject: "repo:acme/checkout:ref:refs/heads/main" }),
    });
    workloadToken = ((await minted.json()) as { token: string }).token;
    const tokenFile = path.join(mkdtempSync(path.join(tmpdir(), "irv-oidc-")), "token");
    writeFileSync(tokenFile, workloadToken);
    stack = await createStack({
      program: path.join(root, "examples", "workload-identity"),
      config: {
        "irv:baseUrl": emulator.baseUrl,
        "irv:authUrl": emulator.authUrl,
        "irv:identity": pipeline.uid,
        "irv:identityTokenFile": tokenFile,
        teamUid,
      },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("creates resources with the identity's rights, without any API token in config", async () => {
    const { outputs } = await stack.up();
    const service = await irv.admin.groups.get(outputs?.serviceUid as string);
    expect(service.uid.startsWith(`${teamUid}/`)).toBe(true);
    expect((await irv.admin.identities.get(outputs?.deployerUid as string)).name).toBe("checkout-deployer");
  });

  it("keeps the workload token and the exchanged token out of the state", async () => {
    const text = JSON.stringify(await stack.exportState());
    expect(text).not.toContain(workloadToken);
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/);
  });

  it("is refused outside the group the identity may edit", async () => {
    await stack.setConfig({ teamUid: irv.emulator.orgUid });
    const result = await stack.up({ allowFailure: true });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/PERMISSION_DENIED/);
    await stack.setConfig({ teamUid });
  });
});
