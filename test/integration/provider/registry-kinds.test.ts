// The providers of issue 45's kinds against the emulator over HTTP: the create, read, update and
// delete the engine calls, counted on the wire with the emulator's stats.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import type { Props } from "../../../provider/runtime/index.js";
import {
  externalGroupRoleMappingKind,
  identityProviderKind,
  makeProvider,
  overlayBindingKind,
  overlayKind,
  repoKind,
  subscriptionKind,
  tagKind,
} from "../../../provider/runtime/index.js";
import { IrvClient } from "../../../sdk/index.js";

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: IrvClient;
let groupUid: string;
let seq = 0;
const D1 = `sha256:${"1".repeat(64)}`;
const D2 = `sha256:${"2".repeat(64)}`;

beforeAll(async () => {
  emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
  client = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  groupUid = (await client.groups.create(emulator.orgUid, { name: "catalog" })).uid;
  await client.repos.create(groupUid, { name: "nginx", catalogTier: "CATALOG_TIER_BASE", bundles: ["base"] });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

// The API calls a step made, by method and route pattern.
async function counted<T>(step: () => Promise<T>): Promise<{ result: T; calls: Record<string, number> }> {
  const admin = { authorization: `Bearer ${emulator.adminToken}` };
  await fetch(`${emulator.baseUrl}/_emulator/stats/reset`, { method: "POST", headers: admin });
  const result = await step();
  const stats = (await (await fetch(`${emulator.baseUrl}/_emulator/stats`, { headers: admin })).json()) as {
    requests: Record<string, number>;
  };
  return { result, calls: stats.requests };
}

// One call of a method on a collection, at whichever API version the client speaks.
const oneCall = (method: string, collection: string) => ({
  [`${method} /registry/${client.apiVersion}/${collection}/*`]: 1,
});

const total = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);

describe("Repo", () => {
  const repo = () => makeProvider(repoKind, () => client);

  it("changes each mutable field with one PATCH, and refreshes with no diff", async () => {
    const inputs: Props = { parentUid: groupUid, name: `app-${++seq}`, bundles: ["base"], aliases: ["web"] };
    const { id, outs } = await repo().create(inputs);
    let state = outs as Props;
    for (const change of [
      { description: "the app" },
      { catalogTier: "CATALOG_TIER_APPLICATION" },
      { bundles: ["base", "extra"] },
      { aliases: ["www"] },
      { activeTags: ["latest"] },
      { customOverlay: { environment: { TZ: "UTC" } } },
      { name: `renamed-${seq}` },
    ]) {
      const news = { ...inputs, ...change };
      Object.assign(inputs, change);
      expect((await repo().diff(id, state, news)).replaces).toEqual([]);
      const { result, calls } = await counted(() => repo().update(id, state, news));
      expect(calls).toEqual(oneCall("PATCH", "repos"));
      state = result.outs as Props;
    }
    const read = await repo().read(id, state);
    expect((await repo().diff(id, read.props ?? {}, inputs)).changes).toBe(false);
    await repo().delete(id, state);
  });

  it("syncs from a catalog name with a custom overlay: the source's fields are outputs, refresh sees no diff", async () => {
    const inputs = {
      parentUid: emulator.orgUid,
      name: `mirror-${++seq}`,
      syncConfig: { source: "catalog/nginx" },
      customOverlay: { contents: { packages: ["curl"] } },
    };
    const { id, outs } = await repo().create(inputs);
    expect(outs).toMatchObject({
      catalogTier: "CATALOG_TIER_BASE",
      bundles: ["base"],
      syncConfig: inputs.syncConfig,
    });
    const read = await repo().read(id, outs);
    expect((await repo().diff(id, read.props ?? {}, inputs)).changes).toBe(false);
    await repo().delete(id, outs);
  });

  it("is deleted after its tags: a refusal while the tag is being deleted is retried", async () => {
    const { id, outs } = await repo().create({ parentUid: groupUid, name: `tagged-${++seq}` });
    const tag = await makeProvider(tagKind, () => client).create({ repoUid: id, name: "latest", digest: D1 });
    const deleting = repo().delete(id, outs);
    await new Promise((r) => setTimeout(r, 300));
    await makeProvider(tagKind, () => client).delete(tag.id, tag.outs as Props);
    await deleting;
    expect(await client.repos.find(id)).toBeUndefined();
  });
});

describe("Tag", () => {
  it("moves to a new digest with one create (the upsert): one tag of that name remains, with the same uid", async () => {
    const repoUid = (await client.repos.create(groupUid, { name: `tags-${++seq}` })).uid;
    const tag = makeProvider(tagKind, () => client);
    const inputs = { repoUid, name: "latest", digest: D1 };
    const { id, outs } = await tag.create(inputs);
    const { result, calls } = await counted(() => tag.update(id, outs as Props, { ...inputs, digest: D2 }));
    expect(calls).toEqual(oneCall("POST", "tags"));
    expect(result.outs).toMatchObject({ uid: id, digest: D2 });
    const tags = await client.tags.collect({ childrenOf: repoUid });
    expect(tags.map((t) => [t.uid, t.name, t.digest])).toEqual([[id, "latest", D2]]);
  });
});

describe("Overlay and OverlayBinding", () => {
  it("bind an overlay by uid and by name; the binding keeps the name the program wrote", async () => {
    const repoUid = (await client.repos.create(groupUid, { name: `bound-${++seq}` })).uid;
    const overlay = await makeProvider(overlayKind, () => client).create({
      parentUid: groupUid,
      name: `tools-${seq}`,
      config: { contents: { packages: ["curl", "jq"] } },
    });
    const binding = makeProvider(overlayBindingKind, () => client);
    const inputs = { repoUid, overlay: `tools-${seq}`, tags: ["latest"] };
    const { id, outs } = await binding.create(inputs);
    expect(outs).toMatchObject({ overlay: `tools-${seq}`, overlayUid: overlay.id });
    const read = await binding.read(id, outs);
    expect((await binding.diff(id, read.props ?? {}, inputs)).changes).toBe(false);
    const o = await makeProvider(overlayKind, () => client).read(overlay.id, overlay.outs as Props);
    expect(o.props).toMatchObject({ config: { contents: { packages: ["curl", "jq"] } } });
    await binding.delete(id, outs);
    await makeProvider(overlayKind, () => client).delete(overlay.id, overlay.outs as Props);
  });
});

describe("Subscription", () => {
  it("creates, reads and deletes with one call each", async () => {
    const sub = makeProvider(subscriptionKind, () => client);
    const inputs = { parentUid: groupUid, sink: "http://127.0.0.1:9/hook" };
    const created = await counted(() => sub.create(inputs));
    expect(total(created.calls)).toBe(1);
    const { id, outs } = created.result;
    const read = await counted(() => sub.read(id, outs));
    expect(total(read.calls)).toBe(1);
    expect((await sub.diff(id, read.result.props ?? {}, inputs)).changes).toBe(false);
    await sub.delete(id, outs);
  });
});

describe("ExternalGroupRoleMapping", () => {
  it("maps an external group at the organization root by default; its identity provider is deleted after it", async () => {
    const viewer = (await client.roles.list({ name: "viewer" })).items[0]?.uid ?? "";
    const idp = makeProvider(identityProviderKind, () => client);
    const idpInputs = {
      parentUid: emulator.orgUid,
      name: `okta-${++seq}`,
      defaultRoleUid: viewer,
      oidc: { issuer: "https://okta.example.com", clientId: "c", clientSecret: "s", groupsClaim: "groups" },
    };
    const made = await idp.create(idpInputs);
    const mapping = makeProvider(externalGroupRoleMappingKind, () => client);
    const inputs = { identityProviderUid: made.id, externalGroupId: "admins", roleUid: viewer };
    const { id, outs } = await mapping.create(inputs);
    expect(outs).toMatchObject({ scope: emulator.orgUid });
    const read = await mapping.read(id, outs);
    expect((await mapping.diff(id, read.props ?? {}, inputs)).changes).toBe(false);
    const deleting = idp.delete(made.id, made.outs as Props);
    await new Promise((r) => setTimeout(r, 300));
    await mapping.delete(id, outs);
    await deleting;
    expect(await client.identityProviders.find(made.id)).toBeUndefined();
  });
});
