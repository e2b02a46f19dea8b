// Issue 45, the registry's writes over HTTP: repos (create, update with a mask, delete, readme),
// tags (create is an upsert by name), overlays and overlay bindings, with the published rules each
// test names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
let team: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  team = (await emu.group("registry-team")).uid;
});
afterAll(() => emu.close());

type Json = Record<string, unknown> & { uid: string };
const digest = (c: string) => `sha256:${c.repeat(64)}`;
let seq = 0;
const repo = (body: Record<string, unknown> = {}, parent = team) =>
  emu.ok<Json>("POST", `/registry/v2/repos/${parent}`, { body: { name: `repo-${++seq}`, ...body } });

describe("repos", () => {
  it("create, get, list, update with a mask and delete, at v2 and v2beta1 alike", async () => {
    const made = await repo({ bundles: ["base"], aliases: ["web"], catalogTier: "CATALOG_TIER_BASE" });
    expect(made).toMatchObject({
      bundles: ["base"],
      aliases: ["web"],
      sync_config: null,
      customOverlay: null,
    });
    expect(await emu.ok("GET", `/registry/v2beta1/repos/${made.uid}`)).toEqual(made);
    const updated = await emu.ok<Json>("PATCH", `/registry/v2/repos/${made.uid}`, {
      body: { description: "web server", bundles: ["ignored"] },
      query: { updateMask: "description" },
    });
    expect(updated).toMatchObject({ description: "web server", bundles: ["base"] });
    const listed = await emu.ok<{ repos: Json[] }>("GET", "/registry/v2beta1/repos", {
      query: { "uidp.children_of": team, name: String(made.name) },
    });
    expect(listed.repos).toEqual([updated]);
    expect((await emu.call("DELETE", `/registry/v2/repos/${made.uid}`)).status).toBe(200);
    expect((await emu.call("GET", `/registry/v2/repos/${made.uid}`)).status).toBe(404);
  });

  it("sync_config is sync_config on the wire: syncConfig is refused naming the field, not dropped", async () => {
    const source = await repo();
    const a = await emu.call<ErrorBody>("POST", `/registry/v2/repos/${team}`, {
      body: { name: "mis-spelt", syncConfig: { source: source.uid } },
    });
    expect(a.status).toBe(400);
    expect(
      detail<{ fieldViolations: { field: string; description: string }[] }>(a.body, "BadRequest")
        .fieldViolations[0],
    ).toMatchObject({ field: "syncConfig", description: expect.stringContaining("sync_config") });
    const b = await emu.call<ErrorBody>("PATCH", `/registry/v2/repos/${source.uid}`, {
      body: { syncConfig: { source: source.uid } },
    });
    expect(b.status).toBe(400);
  });

  it("a synced repo: the source by catalog name or image reference is answered as its uid, the service's fields are filled, the inherited fields come from the source and changing them is code 3", async () => {
    const source = await repo({
      catalogTier: "CATALOG_TIER_APPLICATION",
      bundles: ["app"],
      activeTags: ["1"],
      description: "from source",
    });
    const synced = await emu.ok<Json & { sync_config: Record<string, unknown> }>(
      "POST",
      `/registry/v2/repos/${team}`,
      {
        body: {
          name: "mirror",
          sync_config: { source: `cgr.dev/registry-team/${String(source.name)}`, amazon: "ecr/x" },
        },
      },
    );
    expect(synced.sync_config).toMatchObject({
      source: source.uid,
      amazon: "ecr/x",
      google: "",
      uniqueTags: false,
      apkoOverlay: "",
      gracePeriod: false,
    });
    // Exactly 14 days from creation. Regression: the create read the clock for the sync's expiration
    // and again for the createTime, 1 ms apart in a fresh-clone run.
    const ms = Date.parse(String(synced.sync_config.expirationTime)) - Date.parse(String(synced.createTime));
    expect(ms).toBe(14 * 86_400_000);
    expect(synced).toMatchObject({
      catalogTier: "CATALOG_TIER_APPLICATION",
      bundles: ["app"],
      activeTags: ["1"],
      description: "from source",
    });
    for (const [field, value] of [
      ["bundles", ["x"]],
      ["aliases", ["y"]],
      ["activeTags", ["2"]],
      ["catalogTier", "CATALOG_TIER_AI"],
    ] as const) {
      const a = await emu.call<ErrorBody>("PATCH", `/registry/v2/repos/${synced.uid}`, {
        body: { [field]: value },
        query: { updateMask: field },
      });
      expect(a.status, field).toBe(400);
      expect(a.body.message).toContain("inherited from the sync source");
    }
    const byName = await emu.call<ErrorBody>("POST", `/registry/v2/repos/${team}`, {
      body: {
        name: "mirror-2",
        bundles: ["other"],
        sync_config: { source: `registry-team/${String(source.name)}` },
      },
    });
    expect(byName.status).toBe(400);
    const outputOnly = await emu.call<ErrorBody>("POST", `/registry/v2/repos/${team}`, {
      body: { name: "mirror-3", sync_config: { source: source.uid, uniqueTags: true } },
    });
    expect(outputOnly.status).toBe(400);
    // A read-back restating the service's fields is no change: the mask's update keeps them.
    const again = await emu.ok<Json & { sync_config: Record<string, unknown> }>(
      "PATCH",
      `/registry/v2/repos/${synced.uid}`,
      {
        body: { sync_config: { ...synced.sync_config, azure: "acr/x" } },
        query: { updateMask: "sync_config" },
      },
    );
    expect(again.sync_config).toMatchObject({
      azure: "acr/x",
      expirationTime: synced.sync_config.expirationTime,
    });
    const unknown = await emu.call<ErrorBody>("POST", `/registry/v2/repos/${team}`, {
      body: { name: "mirror-4", sync_config: { source: "nobody/nothing" } },
    });
    expect(unknown.status).toBe(400);
  });

  it("customOverlay needs custom assembly for the group: on by default for the org, turned off per group by the control API (code 9)", async () => {
    const overlay = { contents: { packages: ["curl"] }, environment: { MODE: "debug" } };
    const made = await repo({ customOverlay: overlay });
    expect(made.customOverlay).toEqual({
      contents: { packages: ["curl"], runtimeRepositories: [], runtimeKeyring: [] },
      environment: { MODE: "debug" },
      annotations: {},
      accounts: null,
      certificates: null,
    });
    const closed = (await emu.group("no-assembly")).uid;
    await emu.ok("POST", "/_emulator/custom-assembly", { body: { groupUid: closed, enabled: false } });
    const a = await emu.call<ErrorBody>("POST", `/registry/v2/repos/${closed}`, {
      body: { name: "custom", customOverlay: overlay },
    });
    expect(a.status).toBe(400);
    expect(a.body.code).toBe(9);
    const plain = await repo({}, closed);
    expect(
      (await emu.call("PATCH", `/registry/v2/repos/${plain.uid}`, { body: { customOverlay: overlay } }))
        .status,
    ).toBe(400);
    await emu.ok("POST", "/_emulator/custom-assembly", { body: { groupUid: closed, enabled: true } });
    expect(
      (await emu.call("PATCH", `/registry/v2/repos/${plain.uid}`, { body: { customOverlay: overlay } }))
        .status,
    ).toBe(200);
    const reserved = await emu.call<ErrorBody>("PATCH", `/registry/v2/repos/${plain.uid}`, {
      body: { customOverlay: { environment: { CHAINGUARD_X: "1" } } },
    });
    expect(reserved.status).toBe(400);
  });

  it("the readme: read with repo.list, written only with repo.update and the internal repo.internal.admin (an owner is refused, the admin token writes)", async () => {
    const made = await repo();
    expect(await emu.ok("GET", `/registry/v2/repos/${made.uid}/readme`)).toEqual({
      uid: made.uid,
      content: "",
    });
    const owner = await emu.tokenWithRole(team, "owner");
    const refused = await emu.call<ErrorBody>("PATCH", `/registry/v2/repos/${made.uid}/readme`, {
      token: owner,
      body: { content: "# mine" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("repo.internal.admin");
    expect(
      await emu.ok("PATCH", `/registry/v2beta1/repos/${made.uid}/readme`, { body: { content: "# app" } }),
    ).toEqual({ uid: made.uid, content: "# app" });
    expect(await emu.ok("GET", `/registry/v2/repos/${made.uid}/readme`, { token: owner })).toEqual({
      uid: made.uid,
      content: "# app",
    });
    // The repo itself has no readme field (published Repo reserves it).
    expect(Object.keys(await emu.ok("GET", `/registry/v2/repos/${made.uid}`))).not.toContain("readme");
  });

  it("a repo with a tag or an overlay binding under it is not deleted (code 9, RESOURCE_NOT_EMPTY), as a group is not", async () => {
    const made = await repo();
    const tag = await emu.ok<Json>("POST", `/registry/v2/tags/${made.uid}`, {
      body: { name: "v1", digest: digest("a") },
    });
    const a = await emu.call<ErrorBody>("DELETE", `/registry/v2/repos/${made.uid}`);
    expect(a.status).toBe(400);
    expect(a.body.code).toBe(9);
    expect(
      detail<{ violations: { type: string; subject: string }[] }>(a.body, "PreconditionFailure").violations,
    ).toEqual([expect.objectContaining({ type: "RESOURCE_NOT_EMPTY", subject: tag.uid })]);
    await emu.ok("DELETE", `/registry/v2/tags/${tag.uid}`);
    expect((await emu.call("DELETE", `/registry/v2/repos/${made.uid}`)).status).toBe(200);
  });
});

describe("tags", () => {
  it("create is an upsert by name: a second create moves the same tag (same uid) to the new digest, one tag remains", async () => {
    const made = await repo();
    const first = await emu.ok<Json>("POST", `/registry/v2/tags/${made.uid}`, {
      body: { name: "latest", digest: digest("a") },
    });
    const second = await emu.ok<Json>("POST", `/registry/v2beta1/tags/${made.uid}`, {
      body: { name: "latest", digest: digest("b") },
    });
    expect(second.uid).toBe(first.uid);
    expect(second.digest).toBe(digest("b"));
    expect(Date.parse(String(second.updateTime))).toBeGreaterThan(Date.parse(String(first.updateTime)));
    const listed = await emu.ok<{ tags: Json[] }>("GET", "/registry/v2/tags", {
      query: { "uidp.children_of": made.uid },
    });
    expect(listed.tags).toEqual([second]);
  });

  it("a bad digest is code 3 naming it; there is no update (405)", async () => {
    const made = await repo();
    const a = await emu.call<ErrorBody>("POST", `/registry/v2/tags/${made.uid}`, {
      body: { name: "v1", digest: "sha256:abc" },
    });
    expect(a.status).toBe(400);
    expect(a.body.message).toContain("digest");
    const tag = await emu.ok<Json>("POST", `/registry/v2/tags/${made.uid}`, {
      body: { name: "v1", digest: digest("c") },
    });
    expect(
      (await emu.call("PATCH", `/registry/v2/tags/${tag.uid}`, { body: { digest: digest("d") } })).status,
    ).toBe(405);
  });
});

describe("overlays and overlay bindings", () => {
  it("an overlay takes config.contents.packages only (at least one); other populated fields are code 3; unpopulated ones are fine", async () => {
    const made = await emu.ok<Json>("POST", `/registry/v2beta1/overlays/${team}`, {
      body: {
        name: "debug-tools",
        config: { contents: { packages: ["curl", "jq"], runtimeKeyring: [] }, environment: {} },
      },
    });
    expect(made).toEqual({
      uid: expect.stringMatching(new RegExp(`^${team}/[0-9a-f]{16}$`)),
      name: "debug-tools",
      config: {
        contents: { packages: ["curl", "jq"], runtimeRepositories: [], runtimeKeyring: [] },
        environment: {},
        annotations: {},
        accounts: null,
        certificates: null,
      },
    });
    const env = await emu.call<ErrorBody>("POST", `/registry/v2beta1/overlays/${team}`, {
      body: { name: "with-env", config: { contents: { packages: ["curl"] }, environment: { A: "b" } } },
    });
    expect(env.status).toBe(400);
    expect(
      detail<{ fieldViolations: { field: string }[] }>(env.body, "BadRequest").fieldViolations[0]?.field,
    ).toBe("config.environment");
    const none = await emu.call<ErrorBody>("POST", `/registry/v2beta1/overlays/${team}`, {
      body: { name: "empty", config: { contents: { packages: [] } } },
    });
    expect(none.status).toBe(400);
    expect(
      (await emu.call("PATCH", `/registry/v2beta1/overlays/${made.uid}`, { body: { name: "x" } })).status,
    ).toBe(405);
    expect((await emu.call("GET", `/registry/v2/overlays/${made.uid}`)).status).toBe(404);
  });

  it("a binding names its overlay by uid or by name in the repo's org, answers the repo and the overlay expanded; a bound overlay is not deleted (code 9)", async () => {
    const overlay = await emu.ok<Json>("POST", `/registry/v2beta1/overlays/${team}`, {
      body: { name: "bound", config: { contents: { packages: ["bash"] } } },
    });
    const made = await repo();
    const byName = await emu.ok<Json>("POST", `/registry/v2beta1/overlayBindings/${made.uid}`, {
      body: { overlay: "bound", tags: ["latest"] },
    });
    expect(byName).toEqual({
      uid: expect.stringMatching(new RegExp(`^${made.uid}/`)),
      repo: made.uid,
      overlay,
      tags: ["latest"],
    });
    const byUid = await emu.ok<Json>("POST", `/registry/v2beta1/overlayBindings/${made.uid}`, {
      body: { overlay: overlay.uid, tags: ["1.0", "1.1"] },
    });
    expect(byUid.overlay).toEqual(overlay);
    const listed = await emu.ok<{ overlayBindings: Json[] }>("GET", "/registry/v2beta1/overlayBindings", {
      query: { overlay: overlay.uid },
    });
    expect(listed.overlayBindings.map((b) => b.uid)).toEqual([byName.uid, byUid.uid]);
    const a = await emu.call<ErrorBody>("DELETE", `/registry/v2beta1/overlays/${overlay.uid}`);
    expect(a.body.code).toBe(9);
    const noTags = await emu.call<ErrorBody>("POST", `/registry/v2beta1/overlayBindings/${made.uid}`, {
      body: { overlay: "bound", tags: [] },
    });
    expect(noTags.status).toBe(400);
    const unknown = await emu.call<ErrorBody>("POST", `/registry/v2beta1/overlayBindings/${made.uid}`, {
      body: { overlay: "no-such-overlay", tags: ["x"] },
    });
    expect(unknown.status).toBe(400);
    for (const b of [byName, byUid]) await emu.ok("DELETE", `/registry/v2beta1/overlayBindings/${b.uid}`);
    expect((await emu.call("DELETE", `/registry/v2beta1/overlays/${overlay.uid}`)).status).toBe(200);
    expect((await emu.call("DELETE", `/registry/v2/repos/${made.uid}`)).status).toBe(200);
  });

  it("an editor writes repos and overlays; a viewer reads them and writes neither (published built-in roles)", async () => {
    const editor = await emu.tokenWithRole(team, "editor");
    const viewer = await emu.tokenWithRole(team, "viewer");
    const made = await emu.ok<Json>("POST", `/registry/v2/repos/${team}`, {
      token: editor,
      body: { name: "by-editor" },
    });
    await emu.ok("POST", `/registry/v2beta1/overlays/${team}`, {
      token: editor,
      body: { name: "by-editor", config: { contents: { packages: ["git"] } } },
    });
    expect((await emu.call("GET", `/registry/v2/repos/${made.uid}`, { token: viewer })).status).toBe(200);
    const denied = await emu.call<ErrorBody>("POST", `/registry/v2beta1/overlays/${team}`, {
      token: viewer,
      body: { name: "by-viewer", config: { contents: { packages: ["git"] } } },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain("registry.overlays.edit");
  });
});

describe("fixtures", () => {
  it("seed overlays, repos with overlay bindings (the overlay by name), subscriptions and a group's custom assembly", async () => {
    const created = await emu.ok<{ created: Record<string, number> }>("POST", "/_emulator/fixtures", {
      body: {
        groups: [
          {
            name: "fixture-registry",
            customAssembly: false,
            overlays: [{ name: "fx-overlay", config: { contents: { packages: ["curl"] } } }],
            subscriptions: [{ sink: "https://hooks.example.com/fixture" }],
            repos: [
              {
                name: "fx-repo",
                tags: [{ name: "latest" }],
                overlayBindings: [{ overlay: "fx-overlay", tags: ["latest"] }],
              },
            ],
          },
        ],
      },
    });
    expect(created.created).toMatchObject({
      groups: 1,
      overlays: 1,
      subscriptions: 1,
      repos: 1,
      tags: 1,
      overlayBindings: 1,
    });
    const group = (
      await emu.ok<{ groups: Json[] }>("GET", "/iam/v2/groups", { query: { name: "fixture-registry" } })
    ).groups[0] as Json;
    const refused = await emu.call<ErrorBody>("POST", `/registry/v2/repos/${group.uid}`, {
      body: { name: "custom", customOverlay: { contents: { packages: ["x"] } } },
    });
    expect(refused.body.code).toBe(9);
  });
});
