// irv.registry.PullToken on the real engine against a fresh emulator: a pull token in a team group
// whose password logs in at the emulator's STS and lists the group's repos but may not create a
// group (and the access review of that first up listing it); the credentials nowhere in plain text; a ttl change replaced new-first; rotateBefore
// rotating under a moved clock; destroy leaving no identity or binding.
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewJson } from "../../../review/index.js";
import type { OperationResult, TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { seedRepo, startTestEmulator } from "../support/irv-emulator.js";
import { runOpsCli } from "../support/ops-cli.js";

type Outputs = {
  groupUid: string;
  username: string;
  password: string;
  expirationTime: string;
  dockerConfigJson: string;
  roleUid: string;
};

const program = fixtureDir("pull-token-program");
// The step operations of a run's resource events, for one resource type, in order.
const stepsOf = (result: OperationResult, type: string) =>
  result.events
    .map((e) => (e as { resourcePreEvent?: { metadata?: { op?: string; type?: string } } }).resourcePreEvent)
    .filter((m) => m?.metadata?.type === type)
    .map((m) => m?.metadata?.op);
const TYPE = "pulumi-nodejs:dynamic/irv:PullToken";

describe("irv.registry.PullToken on the real engine", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  const runs: OperationResult[] = [];
  const passwords: string[] = [];
  let outputs: Outputs;
  let teamUid: string;

  const up = async (env?: Record<string, string>) => {
    const result = await stack.up(env ? { env } : {});
    runs.push(result);
    expect(diagnostics(result.events, "error")).toEqual([]);
    outputs = result.outputs as Outputs;
    if (!passwords.includes(outputs.password)) passwords.push(outputs.password);
    return result;
  };

  const exchange = async (o: Outputs) => {
    const url = `${irv.emulator.authUrl}/sts/exchange?aud=${encodeURIComponent(irv.emulator.baseUrl)}&identity=${encodeURIComponent(o.username)}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${o.password}` } });
    return { status: res.status, body: (await res.json()) as { token?: string; code?: number } };
  };

  beforeAll(async () => {
    irv = await startTestEmulator();
    // The team's group and its repos exist already: the stack manages only the token.
    const team = await irv.admin.groups.create(irv.emulator.orgUid, { name: "team" });
    teamUid = team.uid;
    await seedRepo(irv, team.uid, "app");
    stack = await createStack({
      program,
      config: { ...irv.config, groupUid: team.uid, "irv:registryHost": "registry.e2e.example" },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("the access review of the first up shows the token: a new identity gaining all of registry.pull in its group (outside the stack: named by uid)", async () => {
    const args = ["access-review", "--stack", stack.stackName, "--cwd", stack.projectDir, "--format", "json"];
    const json = await runOpsCli(args, { env: stack.env });
    expect(json.stderr).toBe("");
    const diff = (JSON.parse(json.stdout) as ReviewJson).stacks[0]!.diff;
    expect(
      diff.map((r) => [r.state, r.identity.name, r.subtree.path, r.grant.binding, r.grant.role, r.risks]),
    ).toEqual([["gained", "ci-pull", `/${teamUid}`, "ci-pull", "registry.pull", ["new-identity"]]]);
    const pull = (await irv.admin.roles.collect({ name: "registry.pull" }))[0]!;
    expect(diff[0]!.allOf).toEqual({ role: "registry.pull", count: pull.capabilities.length });
  });

  it("creates a pull token whose password lists the group's repos at the emulator and may not create a group", async () => {
    await up();
    const roles = await irv.admin.roles.list({ name: "registry.pull" });
    expect(outputs.roleUid).toBe(roles.items[0]?.uid);
    const docker = JSON.parse(outputs.dockerConfigJson) as { auths: Record<string, { username: string }> };
    expect(docker.auths["registry.e2e.example"]?.username).toBe(outputs.username);

    const { status, body } = await exchange(outputs);
    expect(status).toBe(200);
    const call = (method: string, path: string, json?: unknown) =>
      fetch(`${irv.emulator.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${body.token}`, "content-type": "application/json" },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    const repos = await call("GET", `/registry/v2/repos?uidp.descendants_of=${outputs.groupUid}`);
    expect(repos.status).toBe(200);
    expect(((await repos.json()) as { repos: { name: string }[] }).repos.map((r) => r.name)).toEqual(["app"]);
    const create = await call("POST", `/iam/v2/groups/${outputs.groupUid}`, { name: "nope" });
    expect(create.status).toBe(403);
    expect(((await create.json()) as { code: number }).code).toBe(7);
  });

  it("replaces the token on a ttl change, making the new one before deleting the old", async () => {
    const before = outputs;
    await stack.setConfig({ ttl: "48h" });
    const result = await up();
    expect(outputs.username).not.toBe(before.username);
    expect(stepsOf(result, TYPE)).toEqual(["create-replacement", "replace", "delete-replaced"]);
    expect(Date.parse(outputs.expirationTime) - Date.now()).toBeLessThanOrEqual(48 * 3_600_000);
    // The new one works; the old one is gone with its identity.
    expect((await exchange(outputs)).status).toBe(200);
    expect((await exchange(before)).status).toBe(401);
  });

  it("rotates a token expiring within rotateBefore when pulumi up runs later (the clock moved), and not before", async () => {
    await stack.setConfig({ rotateBefore: "24h" });
    const calm = await up();
    expect(stepsOf(calm, TYPE)).not.toContain("replace");
    const before = outputs;
    // 30 hours later, 18 of the 48 are left: inside the 24-hour window.
    const later = await up({
      NODE_OPTIONS: `--require ${program}/shift-clock.cjs`,
      IRV_TEST_CLOCK_SHIFT_MS: String(30 * 3_600_000),
    });
    expect(stepsOf(later, TYPE)).toEqual(["create-replacement", "replace", "delete-replaced"]);
    expect(outputs.username).not.toBe(before.username);
    // The new token was signed 30 hours ahead: it lasts 48 hours from then.
    expect(decodeJwt(outputs.password).exp).toBeGreaterThan(decodeJwt(before.password).exp ?? 0);
  });

  it("keeps the passwords and the dockerconfigjson out of the state, the engine events and the CLI output; no private key anywhere", async () => {
    expect(passwords.length).toBeGreaterThanOrEqual(3);
    const plain = JSON.stringify(await stack.exportState());
    const revealed = JSON.stringify(await stack.exportState({ showSecrets: true }));
    expect(revealed).toContain(outputs.password);
    // A JWK's private part is "d": no key in the state has one, secret or not.
    expect(revealed).not.toMatch(/\\*"d\\*"\s*:/);
    for (const password of passwords) {
      // The signature part is what no one else can make.
      const signature = password.split(".")[2] as string;
      expect(plain).not.toContain(signature);
      for (const run of runs) {
        expect(run.stdout + run.stderr).not.toContain(signature);
        expect(JSON.stringify(run.events)).not.toContain(signature);
      }
    }
  });

  it("leaves no identity or binding behind on destroy", async () => {
    const groupUid = outputs.groupUid;
    const teamBefore = await irv.admin.identities.list({ childrenOf: groupUid });
    expect(teamBefore.items).toHaveLength(1);
    const result = await stack.destroy();
    expect(diagnostics(result.events, "error")).toEqual([]);
    expect((await irv.admin.identities.list({ descendantsOf: irv.emulator.orgUid })).items).toEqual([]);
    expect((await irv.admin.roleBindings.list({ descendantsOf: irv.emulator.orgUid })).items).toEqual([]);
  });
});
