// The PullToken kind against the emulator over HTTP: what create makes (a static-keys identity, its
// binding to registry.pull), that the password works at the emulator's STS for exactly the group's
// registry reads, that it stops working at its expiration (the emulator's clock moved), rotation by
// rotateBefore, and a delete that leaves neither identity nor binding.
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import type { KindEnv, Props } from "../../../provider/runtime/index.js";
import { makeProvider, pullTokenKind } from "../../../provider/runtime/index.js";
import { IrvClient } from "../../../sdk/index.js";

const HOST = "registry.test.example";
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let admin: IrvClient;
let teamUid: string;
let otherUid: string;
let pullUid: string;

const env = (shiftMs = 0): KindEnv => ({ registryHost: HOST, now: () => now() + shiftMs });
const provider = (shiftMs = 0) => makeProvider(pullTokenKind, () => admin, undefined, env(shiftMs));

async function seedRepo(parentUid: string, name: string): Promise<void> {
  const res = await fetch(`${emulator.baseUrl}/_emulator/repos`, {
    method: "POST",
    headers: { authorization: `Bearer ${emulator.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ parentUid, name }),
  });
  expect(res.status).toBe(200);
}

// The registry client's login: the password exchanged at the STS for an API token of the identity.
async function exchange(username: string, password: string): Promise<{ status: number; body: Props }> {
  const url = `${emulator.authUrl}/sts/exchange?aud=${encodeURIComponent(emulator.baseUrl)}&identity=${encodeURIComponent(username)}`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${password}` } });
  return { status: res.status, body: (await res.json()) as Props };
}

beforeAll(async () => {
  emulator = await startEmulator({ host: "127.0.0.1", port: 0, clock: now });
  admin = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  teamUid = (await admin.groups.create(emulator.orgUid, { name: "team" })).uid;
  otherUid = (await admin.groups.create(emulator.orgUid, { name: "other" })).uid;
  const sub = (await admin.groups.create(teamUid, { name: "sub" })).uid;
  await seedRepo(teamUid, "app");
  await seedRepo(sub, "base");
  await seedRepo(otherUid, "secret-app");
  pullUid = (await admin.roles.list({ name: "registry.pull" })).items[0]?.uid ?? "";
});

afterAll(async () => {
  offsetMs = 0;
  await admin.close();
  await emulator.close();
});

describe("PullToken", () => {
  let id: string;
  let outs: Props;

  it("creates a static-keys identity bound to registry.pull, and returns a signed password for the registry host", async () => {
    const before = Date.now();
    ({ id, outs } = (await provider().create({ groupUid: teamUid, name: "k8s-pull" })) as {
      id: string;
      outs: Props;
    });
    expect(outs.username).toBe(id);
    expect(id.startsWith(`${teamUid}/`)).toBe(true);
    expect(outs.roleUid).toBe(pullUid);
    // 30 days by default.
    const exp = Date.parse(outs.expirationTime as string);
    expect(exp - before).toBeGreaterThan(720 * 3_600_000 - 60_000);
    expect(exp - before).toBeLessThanOrEqual(720 * 3_600_000);
    const identity = await admin.identities.get(id);
    expect(identity.staticKeys?.audiences).toEqual([HOST]);
    // Named after the token and its expiration, so a replacement made first has a name of its own.
    expect(identity.name).toBe(`k8s-pull-${(outs.expirationTime as string).replace(/[-:]/g, "")}`);
    expect(outs.name).toBe("k8s-pull");
    expect(identity.staticKeys?.expirationTime).toBe(outs.expirationTime);
    // Only the public key is at the service.
    const jwks = JSON.parse(identity.staticKeys?.issuerKeys ?? "{}") as { keys: Props[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]?.d).toBeUndefined();
    const password = outs.password as string;
    expect(decodeProtectedHeader(password).kid).toBe(jwks.keys[0]?.kid);
    expect(decodeJwt(password)).toMatchObject({ aud: HOST, exp: Math.floor(exp / 1000) });
    const bindings = await admin.roleBindings.list({ childrenOf: teamUid });
    expect(bindings.items.map((b) => [b.identity.uid, b.role.name])).toEqual([[id, "registry.pull"]]);
    const docker = JSON.parse(outs.dockerConfigJson as string) as {
      auths: Record<string, { username: string; password: string; auth: string }>;
    };
    expect(docker.auths[HOST]).toEqual({
      username: id,
      password,
      auth: Buffer.from(`${id}:${password}`).toString("base64"),
    });
  });

  it("logs in at the STS and lists the group's repos and tags, and nothing else", async () => {
    const { status, body } = await exchange(outs.username as string, outs.password as string);
    expect(status).toBe(200);
    const pull = new IrvClient({ baseUrl: emulator.baseUrl, token: body.token as string });
    try {
      const repos = await pull.repos.list({ descendantsOf: teamUid });
      expect(repos.items.map((r) => r.name).sort()).toEqual(["app", "base"]);
      const app = repos.items.find((r) => r.name === "app");
      expect((await pull.tags.list({ childrenOf: app?.uid ?? "" })).items).toEqual([]);
      // Everything else: refused.
      await expect(pull.groups.create(teamUid, { name: "nope" })).rejects.toMatchObject({ code: 7 });
      await expect(pull.repos.list({ descendantsOf: otherUid })).resolves.toMatchObject({ items: [] });
      await expect(
        pull.identities.create(teamUid, {
          name: "x",
          claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "x" },
        }),
      ).rejects.toMatchObject({ code: 7 });
    } finally {
      await pull.close();
    }
  });

  it("renames in place, keeping the password", async () => {
    const p = provider();
    const news = { groupUid: teamUid, name: "k8s-pull-renamed" };
    const diff = await p.diff(id, outs, news);
    expect(diff.replaces).toEqual([]);
    const updated = (await p.update(id, outs, news)).outs as Props;
    expect(updated.name).toBe("k8s-pull-renamed");
    expect((await admin.identities.get(id)).name).toMatch(/^k8s-pull-renamed-\d{8}T\d{6}Z$/);
    expect(updated.password).toBe(outs.password);
    outs = updated;
  });

  it("replaces (new first) on a ttl or role change, and when rotateBefore reaches the expiration", async () => {
    const p = provider();
    expect((await p.diff(id, outs, { groupUid: teamUid, name: "k8s-pull-renamed" })).changes).toBe(false);
    expect(await p.diff(id, outs, { groupUid: teamUid, name: "k8s-pull-renamed", ttl: "24h" })).toMatchObject(
      { replaces: ["ttl"], deleteBeforeReplace: false },
    );
    const viewerUid = (await admin.roles.list({ name: "viewer" })).items[0]?.uid ?? "";
    expect(
      await p.diff(id, outs, { groupUid: teamUid, name: "k8s-pull-renamed", roleUid: viewerUid }),
    ).toMatchObject({ replaces: ["roleUid"], deleteBeforeReplace: false });
    // The default role named explicitly is the same role.
    expect(
      (await p.diff(id, outs, { groupUid: teamUid, name: "k8s-pull-renamed", roleUid: pullUid })).changes,
    ).toBe(false);
    // "720h" is the default written another way: no change.
    expect(
      (await p.diff(id, outs, { groupUid: teamUid, name: "k8s-pull-renamed", ttl: "2592000s" })).changes,
    ).toBe(false);
    const rotating = { groupUid: teamUid, name: "k8s-pull-renamed", rotateBefore: "168h" };
    // 30 days left: nothing to do but record rotateBefore.
    expect((await p.diff(id, outs, rotating)).replaces ?? []).toEqual([]);
    // 24 days later, a week is left: replaced.
    expect(await provider(24 * 86_400_000).diff(id, outs, rotating)).toMatchObject({
      changes: true,
      replaces: ["rotateBefore"],
      deleteBeforeReplace: false,
    });
  });

  it("refuses a rotateBefore as long as the ttl, and a ttl the service would not trust", async () => {
    const p = provider();
    const reasons = async (inputs: Props) =>
      ((await p.check({}, inputs)).failures ?? []).map((f) => `${f.property}: ${f.reason}`);
    expect(await reasons({ groupUid: teamUid, name: "a", ttl: "24h", rotateBefore: "24h" })).toEqual([
      expect.stringMatching(/^rotateBefore: pull token rotateBefore must be shorter than ttl \(24h\)/),
    ]);
    expect(await reasons({ groupUid: teamUid, name: "a", ttl: "9000h" })).toEqual([
      expect.stringMatching(/^ttl: pull token ttl must be from 1h to 8760h/),
    ]);
  });

  it("reads back without the password (the service never has it), as an import does", async () => {
    const read = await provider().read(id, {});
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject({ username: id, roleUid: pullUid, groupUid: teamUid });
    expect(read.props?.password).toBeUndefined();
  });

  it("is refused by the STS once expired, with a code saying so", async () => {
    const { id: shortId, outs: short } = (await provider().create({
      groupUid: teamUid,
      name: "short",
      ttl: "1h",
    })) as { id: string; outs: Props };
    expect((await exchange(shortId, short.password as string)).status).toBe(200);
    offsetMs = 2 * 3_600_000;
    try {
      const refused = await exchange(shortId, short.password as string);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 16 });
      expect(String(refused.body.message)).toMatch(/expired/);
    } finally {
      offsetMs = 0;
    }
    await provider().delete(shortId, short);
  });

  it("deletes the binding, then the identity", async () => {
    await provider().delete(id, outs);
    expect(await admin.identities.find(id)).toBeUndefined();
    expect((await admin.roleBindings.list({ childrenOf: teamUid })).items).toEqual([]);
    // The password is worthless now: no identity trusts its key.
    expect((await exchange(id, outs.password as string)).status).toBe(401);
  });
});
