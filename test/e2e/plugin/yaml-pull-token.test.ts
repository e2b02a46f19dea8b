// A pull token and a preset-made identity from Pulumi YAML on the packaged native plugin against the
// emulator: the password logs in at the STS and lists the team's repos but may not create a group;
// the credentials stay secret; a ttl change replaces new-first; the preset's identity is assumed
// with a GitHub-shaped token the emulator's issuer signs; destroy leaves no identity or binding.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationResult, TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir, pulumiBinDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { seedRepo, startTestEmulator } from "../support/irv-emulator.js";
import type { NativePlugin } from "../support/native-plugin.js";
import { prepareNativePlugin } from "../support/native-plugin.js";

type Outputs = Record<string, string>;

const stepsOf = (result: OperationResult, type: string) =>
  result.events
    .map((e) => (e as { resourcePreEvent?: { metadata?: { op?: string; type?: string } } }).resourcePreEvent)
    .filter((m) => m?.metadata?.type === type)
    .map((m) => m?.metadata?.op);

describe("a pull token and a CI preset from Pulumi YAML on pulumi-resource-irv", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let plugin: NativePlugin;
  let groupUid: string;
  const runs: OperationResult[] = [];
  const passwords: string[] = [];
  let outputs: Outputs;

  const up = async () => {
    const result = await stack.up();
    runs.push(result);
    expect(diagnostics(result.events, "error")).toEqual([]);
    outputs = result.outputs as Outputs;
    passwords.push(outputs.password ?? "");
    return result;
  };

  const exchange = async (identity: string, token: string) => {
    const url = `${irv.emulator.authUrl}/sts/exchange?aud=${encodeURIComponent(irv.emulator.baseUrl)}&identity=${encodeURIComponent(identity)}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { token?: string } };
  };

  beforeAll(async () => {
    plugin = await prepareNativePlugin(pulumiBinDir());
    irv = await startTestEmulator();
    groupUid = (await irv.admin.groups.create(irv.emulator.orgUid, { name: "team" })).uid;
    await seedRepo(irv, groupUid, "app");
    stack = await createStack({
      program: fixtureDir("yaml-pull-token"),
      config: { ...irv.config, groupUid, issuerUrl: irv.emulator.issuerUrl },
      env: plugin.env,
    });
    await plugin.install(stack);
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("creates a pull token whose password lists the team's repos at the emulator and may not create a group", async () => {
    await up();
    const docker = JSON.parse(outputs.dockerConfigJson ?? "{}") as {
      auths: Record<string, { username: string }>;
    };
    expect(docker.auths["cgr.dev"]?.username).toBe(outputs.username);
    const { status, body } = await exchange(outputs.username ?? "", outputs.password ?? "");
    expect(status).toBe(200);
    const call = (method: string, path: string, json?: unknown) =>
      fetch(`${irv.emulator.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${body.token}`, "content-type": "application/json" },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    const repos = await call("GET", `/registry/v2/repos?uidp.descendants_of=${groupUid}`);
    expect(((await repos.json()) as { repos: { name: string }[] }).repos.map((r) => r.name)).toEqual(["app"]);
    expect((await call("POST", `/iam/v2/groups/${groupUid}`, { name: "nope" })).status).toBe(403);
  });

  it("makes the preset's identity, which a GitHub-shaped token of acme/a.b assumes and one of acme/aXb does not", async () => {
    expect(outputs.deploySubject).toBe("repo:acme/a.b:environment:production");
    const mint = async (repo: string) => {
      const res = await fetch(`${irv.emulator.issuerUrl}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          subject: `repo:${repo}:environment:production`,
          claims: { repository: repo, environment: "production" },
        }),
      });
      return ((await res.json()) as { token: string }).token;
    };
    expect((await exchange(outputs.deployUid ?? "", await mint("acme/a.b"))).status).toBe(200);
    expect((await exchange(outputs.deployUid ?? "", await mint("acme/aXb"))).status).toBe(403);
  });

  it("replaces the token on a ttl change, the new one first, and keeps every password out of the state and the output", async () => {
    const before = outputs;
    await stack.setConfig({ ttl: "48h" });
    const result = await up();
    expect(stepsOf(result, "irv:registry:PullToken")).toEqual([
      "create-replacement",
      "replace",
      "delete-replaced",
    ]);
    expect(outputs.username).not.toBe(before.username);
    expect((await exchange(outputs.username ?? "", outputs.password ?? "")).status).toBe(200);
    const plain = JSON.stringify(await stack.exportState());
    for (const password of passwords) {
      const signature = password.split(".")[2] ?? "";
      expect(signature).not.toBe("");
      expect(plain).not.toContain(signature);
      for (const run of runs) {
        expect(run.stdout + run.stderr).not.toContain(signature);
        expect(JSON.stringify(run.events)).not.toContain(signature);
      }
    }
  });

  it("leaves no identity or binding behind on destroy", async () => {
    const result = await stack.destroy();
    expect(diagnostics(result.events, "error")).toEqual([]);
    expect((await irv.admin.identities.list({ descendantsOf: irv.emulator.orgUid })).items).toEqual([]);
    expect((await irv.admin.roleBindings.list({ descendantsOf: irv.emulator.orgUid })).items).toEqual([]);
  });
});
