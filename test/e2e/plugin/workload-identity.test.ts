// The native plugin through the CLI with no API token: the stack config names an identity
// (`irv:identity`) and a workload token source, and pulumi-resource-irv exchanges the token at the
// emulator's STS before it calls the API — from the token file, then from a secret `irv:identityToken`.
// Neither the workload token nor the exchanged API token may reach the state.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, pulumiBinDir } from "../harness/index.js";
import { EXCHANGE } from "../support/ci-job.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { prepareNativePlugin } from "../support/native-plugin.js";
import type { WorkloadIdentity } from "../support/workload-identity.js";
import { workloadIdentity } from "../support/workload-identity.js";

const SUBJECT = "repo:acme/infra:ref:refs/heads/main";
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

// A group, an identity in it and a role read through an invoke: resources and a lookup both need
// the exchanged token.
const PROGRAM = `name: irv-yaml-workload-identity
runtime: yaml
config:
  orgUid:
    type: string
  teamDescription:
    type: string
    default: Made by the pipeline
variables:
  viewer:
    fn::invoke:
      function: irv:iam:getRole
      arguments:
        name: viewer
resources:
  team:
    type: irv:iam:Group
    properties:
      parentUid: \${orgUid}
      description: \${teamDescription}
  teamCi:
    type: irv:iam:Identity
    properties:
      groupUid: \${team.uid}
      claimMatch:
        issuer: https://token.actions.githubusercontent.com
        subject: repo:acme/team:ref:refs/heads/main
  teamCiViewer:
    type: irv:iam:RoleBinding
    properties:
      groupUid: \${team.uid}
      identityUid: \${teamCi.uid}
      roleUid: \${viewer.uid}
outputs:
  teamUid: \${team.uid}
`;

describe("pulumi-resource-irv with irv:identity and a workload token (no irv:token)", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let dir: string;
  let wi: WorkloadIdentity;
  let teamUid: string;

  beforeAll(async () => {
    const plugin = await prepareNativePlugin(pulumiBinDir());
    irv = await startTestEmulator();
    dir = mkdtempSync(path.join(os.tmpdir(), "irv-yaml-wi-"));
    mkdirSync(path.join(dir, "program"));
    writeFileSync(path.join(dir, "program", "Pulumi.yaml"), PROGRAM);
    wi = await workloadIdentity(irv, { subject: SUBJECT, dir });
    stack = await createStack({
      program: path.join(dir, "program"),
      config: { ...wi.config, orgUid: irv.emulator.orgUid },
      // The workload identity is the only credential: no IRV_TOKEN leaks in from the environment.
      env: { ...plugin.env, IRV_TOKEN: "" },
    });
    await plugin.install(stack);
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("exchanges the workload token from irv:identityTokenFile at the STS and creates the resources", async () => {
    await irv.resetStats();
    const up = await stack.up();
    expect(diagnostics(up.events, "error")).toEqual([]);
    const requests = (await irv.stats()).requests;
    expect(requests[EXCHANGE]).toBeGreaterThanOrEqual(1);
    expect(requests["POST /iam/v2/groups/*"]).toBe(1);
    expect(requests["POST /iam/v2/identities/*"]).toBe(1);
    expect(requests["POST /iam/v2/roleBindings/*"]).toBe(1);
    teamUid = String(up.outputs?.teamUid);
    expect(await irv.admin.groups.get(teamUid)).toMatchObject({
      name: "team",
      description: "Made by the pipeline",
    });
    // The stack config holds a file path and an identity uid, nothing that grants access.
    const config = JSON.stringify(await stack.automation.getAllConfig());
    expect(config).not.toContain(wi.workloadToken);
  });

  it("keeps the workload token and every exchanged API token out of the state", async () => {
    for (const showSecrets of [false, true]) {
      const text = JSON.stringify(await stack.exportState({ showSecrets }));
      expect(text).not.toContain(wi.workloadToken);
      expect(text).not.toMatch(JWT);
    }
    // The default provider's state records where the token comes from, not the token.
    const state = await stack.exportState();
    const provider = state.deployment.resources?.find((r) => r.type === "pulumi:providers:irv");
    expect(provider?.inputs).toMatchObject({ identity: wi.identityUid, identityTokenFile: wi.tokenFile });
    expect(provider?.inputs).not.toHaveProperty("token");
  });

  it("takes the workload token from a secret irv:identityToken too, which the state holds only encrypted", async () => {
    await stack.removeConfig("irv:identityTokenFile");
    await stack.setConfig({ "irv:identityToken": { value: wi.workloadToken, secret: true } });
    await stack.setConfig({ teamDescription: "Edited by the pipeline" });
    await irv.resetStats();
    await stack.up();
    const requests = (await irv.stats()).requests;
    expect(requests[EXCHANGE]).toBeGreaterThanOrEqual(1);
    expect(requests["PATCH /iam/v2/groups/*"]).toBe(1);
    expect((await irv.admin.groups.get(teamUid)).description).toBe("Edited by the pipeline");
    const text = JSON.stringify(await stack.exportState());
    expect(text).not.toContain(wi.workloadToken);
    expect(text).not.toMatch(JWT);
    // Decrypted, the token is there and still marked as a secret; the API token the STS gave is not.
    const decrypted = await stack.exportState({ showSecrets: true });
    const provider = decrypted.deployment.resources?.find((r) => r.type === "pulumi:providers:irv");
    const stored = (provider?.inputs as Record<string, { plaintext?: string }> | undefined)?.identityToken;
    expect(JSON.parse(stored?.plaintext ?? "null")).toBe(wi.workloadToken);
    const withoutWorkloadToken = JSON.stringify(decrypted).replaceAll(wi.workloadToken, "");
    expect(withoutWorkloadToken).not.toMatch(JWT);
  });

  it("destroys what it made with the exchanged token", async () => {
    const destroy = await stack.destroy();
    expect(diagnostics(destroy.events, "error")).toEqual([]);
    expect(await irv.admin.groups.find(teamUid)).toBeUndefined();
  });
});
