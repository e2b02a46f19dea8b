import { describe, expect, it } from "vitest";
import { makeProvider, repoKind } from "../../../../../provider/runtime/index.js";
import { REPO_MUTABLE_FIELDS, RepoSchema } from "../../../../../sdk/index.js";
import { fakeClient } from "./fake-client.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";
const UID = `${ORG}/0123456789abcdef`;
const SOURCE = `${ORG}/00000000000000aa`;
const noClient = () => fakeClient({}).client;

// A repo as the gateway answers it: every field, unset ones empty.
const wire = (over: Record<string, unknown> = {}) =>
  RepoSchema.parse({
    uid: UID,
    name: "app",
    description: "",
    catalogTier: "CATALOG_TIER_UNSPECIFIED",
    bundles: [],
    aliases: [],
    activeTags: [],
    sync_config: null,
    customOverlay: null,
    createTime: "2026-01-01T00:00:00Z",
    updateTime: "2026-01-01T00:00:00Z",
    ...over,
  });

describe("irv.registry.Repo check", () => {
  const provider = makeProvider(repoKind, noClient);

  it("refuses a synced repo's inherited fields and readme, naming each field and the rule", async () => {
    const r = await provider.check(
      {},
      {
        parentUid: ORG,
        name: "nginx",
        syncConfig: { source: "chainguard/nginx" },
        catalogTier: "CATALOG_TIER_BASE",
        bundles: ["base"],
        aliases: ["web"],
        activeTags: ["latest"],
        readme: "# nginx",
      },
    );
    expect(r.failures?.map((f) => f.property)).toEqual([
      "catalogTier",
      "bundles",
      "aliases",
      "activeTags",
      "readme",
    ]);
    expect(r.failures?.[0]?.reason).toContain(
      "cannot be set on a synced repo: it is inherited from syncConfig.source",
    );
  });

  it("refuses the service's own sync fields and a reserved overlay key by name", async () => {
    const r = await provider.check(
      {},
      {
        parentUid: ORG,
        name: "nginx",
        syncConfig: { source: "chainguard/nginx", uniqueTags: true },
        customOverlay: { environment: { CHAINGUARD_X: "1" } },
      },
    );
    expect(r.failures?.map((f) => f.property).sort()).toEqual([
      "customOverlay.environment.CHAINGUARD_X",
      "syncConfig",
    ]);
  });
});

describe("irv.registry.Repo on the wire", () => {
  it("creates with sync_config under its wire name, then reads the README (no write when readme is unset)", async () => {
    const { client, calls } = fakeClient({
      "repos.create": (_p: string, body: Record<string, unknown>) =>
        wire({ ...body, sync_config: { source: SOURCE, google: "", amazon: "", azure: "" } }),
      "repos.getReadme": () => ({ uid: UID, content: "# from the source" }),
    });
    const { outs } = await makeProvider(repoKind, () => client).create({
      parentUid: ORG,
      name: "nginx",
      syncConfig: { source: "chainguard/nginx" },
      customOverlay: { contents: { packages: ["curl"] } },
    });
    expect(calls.map((c) => c.method)).toEqual(["repos.create", "repos.getReadme"]);
    expect(calls[0]?.args[1]).toEqual({
      name: "nginx",
      sync_config: { source: "chainguard/nginx" },
      customOverlay: { contents: { packages: ["curl"] } },
    });
    // The state keeps the source as written (the service answers a uid).
    expect(outs).toMatchObject({
      syncConfig: { source: "chainguard/nginx" },
      readmeContent: "# from the source",
    });
  });

  it("writes the README only when set, after the create", async () => {
    const { client, calls } = fakeClient({
      "repos.create": (_p: string, body: Record<string, unknown>) => wire(body),
      "repos.updateReadme": (_u: string, content: string) => ({ uid: UID, content }),
    });
    const { outs } = await makeProvider(repoKind, () => client).create({
      parentUid: ORG,
      name: "app",
      readme: "# app",
    });
    expect(calls.map((c) => c.method)).toEqual(["repos.create", "repos.updateReadme"]);
    expect(outs).toMatchObject({ readme: "# app", readmeContent: "# app" });
  });

  it("changes every mutable field in one PATCH whose mask names each in its wire name", async () => {
    const { client, calls } = fakeClient({
      "repos.update": (_u: string, body: Record<string, unknown>) => wire(body),
    });
    const olds = { parentUid: ORG, name: "app", uid: UID, readmeContent: "" };
    const news = {
      parentUid: ORG,
      name: "app2",
      description: "web",
      catalogTier: "CATALOG_TIER_BASE",
      bundles: ["base"],
      aliases: ["web"],
      activeTags: ["latest"],
      customOverlay: { environment: { TZ: "UTC" } },
    };
    await makeProvider(repoKind, () => client).update(UID, olds, news);
    expect(calls.map((c) => c.method)).toEqual(["repos.update"]);
    expect(calls[0]?.args[2]).toEqual({
      updateMask: ["name", "description", "catalogTier", "bundles", "aliases", "activeTags", "customOverlay"],
    });
    // And a sync config, as sync_config (body and mask).
    calls.length = 0;
    await makeProvider(repoKind, () => client).update(UID, olds, {
      parentUid: ORG,
      name: "app",
      syncConfig: { source: SOURCE, amazon: "1.dkr.ecr/app" },
    });
    expect(calls[0]?.args[1]).toEqual({ sync_config: { source: SOURCE, amazon: "1.dkr.ecr/app" } });
    expect(calls[0]?.args[2]).toEqual({ updateMask: ["sync_config"] });
    expect(REPO_MUTABLE_FIELDS).toContain("sync_config");
  });

  it("writes a changed README with its own call and no PATCH", async () => {
    const { client, calls } = fakeClient({
      "repos.updateReadme": (_u: string, content: string) => ({ uid: UID, content }),
    });
    const olds = { parentUid: ORG, name: "app", readme: "a", uid: UID, readmeContent: "a", createTime: "t0" };
    const { outs } = await makeProvider(repoKind, () => client).update(UID, olds, {
      parentUid: ORG,
      name: "app",
      readme: "b",
    });
    expect(calls.map((c) => c.method)).toEqual(["repos.updateReadme"]);
    expect(outs).toMatchObject({ readme: "b", readmeContent: "b", createTime: "t0" });
  });

  it("refreshes a synced repo without a diff: inherited fields, description and the source's uid are the service's", async () => {
    const { client } = fakeClient({
      "repos.find": () =>
        wire({
          description: "from the source",
          catalogTier: "CATALOG_TIER_BASE",
          bundles: ["base"],
          sync_config: { source: SOURCE, google: "", amazon: "", azure: "", uniqueTags: false },
          customOverlay: {
            contents: { packages: ["curl"], runtimeRepositories: [], runtimeKeyring: [] },
            environment: {},
            annotations: {},
          },
        }),
      "repos.getReadme": () => ({ uid: UID, content: "" }),
    });
    const provider = makeProvider(repoKind, () => client);
    const declared = {
      parentUid: ORG,
      name: "app",
      syncConfig: { source: "chainguard/nginx" },
      customOverlay: { contents: { packages: ["curl"] } },
    };
    const state = { ...declared, uid: UID };
    const read = await provider.read(UID, state);
    expect(read.props).toMatchObject({
      syncConfig: { source: "chainguard/nginx" },
      catalogTier: "CATALOG_TIER_BASE",
    });
    const diff = await provider.diff(UID, read.props ?? {}, declared);
    expect(diff.changes).toBe(false);
  });

  // Regression (issue 45): `pulumi import` of a synced repo wrote `source: ""` from the inputs an
  // import read, and the code it wrote failed its first preview.
  it("imported, a synced repo's inputs name its source by the uid the service answered; a program naming it either way previews no change", async () => {
    const { client } = fakeClient({
      "repos.find": () =>
        wire({ sync_config: { source: SOURCE, google: "gcr", amazon: "", azure: "", uniqueTags: false } }),
      "repos.getReadme": () => ({ uid: UID, content: "" }),
    });
    const provider = makeProvider(repoKind, () => client);
    const read = await provider.read(UID, {});
    expect(read.inputs).toMatchObject({ syncConfig: { source: SOURCE, google: "gcr" } });
    for (const source of [SOURCE, "chainguard/nginx"]) {
      const declared = { ...read.inputs, syncConfig: { source, google: "gcr" } };
      expect((await provider.diff(UID, read.props ?? {}, declared)).changes).toBe(false);
    }
  });

  it("replaces on another group only", async () => {
    const provider = makeProvider(repoKind, noClient);
    const state = { parentUid: ORG, name: "app", uid: UID };
    expect(
      (await provider.diff(UID, state, { parentUid: `${ORG}/00000000000000bb`, name: "app" })).replaces,
    ).toEqual(["parentUid"]);
    expect((await provider.diff(UID, state, { parentUid: ORG, name: "b", bundles: ["x"] })).replaces).toEqual(
      [],
    );
  });
});
