// Every kind issue 45 added on the real engine against a fresh emulator, from one TypeScript program
// (run by Node's type stripping): up, one PATCH per repo whose fields change and nothing replaced,
// a refresh with no diff, a tag's digest moved by one upsert (same tag), adoption of each kind with
// the import option, and a destroy in order (tags and bindings before their repo, the mapping before
// its identity provider).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationResult, TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { resourceRoutes, startTestEmulator } from "../support/irv-emulator.js";
import { previewChanges } from "../support/preview-steps.js";

interface Outputs {
  groupUid: string;
  appUid: string;
  mirrorUid: string;
  mirrorBundles: string[];
  tagUid: string;
  boundOverlay: string;
  oktaUid: string;
  mappingScope: string;
  importedUids: Record<string, string>;
}
const D1 = `sha256:${"1".repeat(64)}`;
const D2 = `sha256:${"2".repeat(64)}`;
// The version the provider speaks (the route patterns name it).
const at = (routes: Record<string, number>) =>
  Object.fromEntries(Object.entries(routes).map(([k, v]) => [k.replace(/\/v2(beta1)?\//, "/V/"), v]));

describe("issue 45's kinds on the real engine", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let out: Outputs;
  const spec = {
    app: { bundles: ["base"], aliases: ["web"] } as Record<string, unknown>,
    mirror: {} as Record<string, unknown>,
    digest: D1,
    sink: "http://127.0.0.1:9/hook",
    imports: {} as Record<string, string>,
  };

  const up = async (): Promise<OperationResult> => {
    await stack.setConfig({ spec: JSON.stringify(spec) });
    await irv.resetStats();
    const result = await stack.up();
    expect(diagnostics(result.events, "error")).toEqual([]);
    out = result.outputs as unknown as Outputs;
    return result;
  };
  // The resource calls of the last run (the built-in role lookup aside).
  const calls = async () => {
    const { "GET /iam/V/roles": _lookup, ...rest } = at(resourceRoutes((await irv.stats()).requests));
    return rest;
  };

  beforeAll(async () => {
    irv = await startTestEmulator();
    stack = await createStack({
      program: fixtureDir("registry-kinds-program"),
      config: { ...irv.config, spec: JSON.stringify(spec) },
    });
    await up();
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("creates each kind with one POST (a repo also reads its README), the synced repo inheriting from its source", async () => {
    expect(await calls()).toEqual({
      "POST /iam/V/groups/*": 1,
      "POST /registry/V/repos/*": 2,
      "GET /registry/V/repos/*": 2,
      "POST /registry/V/tags/*": 1,
      "POST /registry/V/overlays/*": 1,
      "POST /registry/V/overlayBindings/*": 1,
      "POST /events/V/subscriptions/*": 1,
      "POST /iam/V/identityProviders/*": 1,
      "POST /iam/V/externalGroupRoleMappings/*": 1,
    });
    expect(out.mirrorBundles).toEqual(["base"]);
    expect(out.mappingScope).toBe(irv.emulator.orgUid);
    expect(out.boundOverlay).toBe("tools");
  });

  it("changes every mutable field of both repos in place: one PATCH each, nothing replaced", async () => {
    const before = { app: out.appUid, mirror: out.mirrorUid };
    spec.app = {
      name: "app-renamed",
      description: "the app",
      catalogTier: "CATALOG_TIER_APPLICATION",
      bundles: ["base", "extra"],
      aliases: ["www"],
      activeTags: ["latest"],
    };
    spec.mirror = { amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/app", environment: { TZ: "UTC" } };
    await stack.setConfig({ spec: JSON.stringify(spec) });
    expect(await previewChanges(stack)).toEqual([
      "update app [activeTags, aliases, bundles, catalogTier, description, name]",
      "update mirror [customOverlay, syncConfig]",
    ]);
    await up();
    expect(await calls()).toEqual({ "PATCH /registry/V/repos/*": 2 });
    expect((await irv.stats()).updateMasks).toEqual({
      "name,description,catalog_tier,bundles,aliases,active_tags": 1,
      "sync_config,custom_overlay": 1,
    });
    expect({ app: out.appUid, mirror: out.mirrorUid }).toEqual(before);
    const mirror = await irv.admin.repos.get(out.mirrorUid);
    expect(mirror.bundles).toEqual(["base", "extra"]);
    expect(mirror.sync_config?.amazon).toBe(spec.mirror.amazon);
  });

  it("refreshes with no diff, and previews no change after it", async () => {
    await stack.refresh({ args: ["--expect-no-changes"] });
    expect(await previewChanges(stack)).toEqual([]);
  });

  it("moves the tag to a new digest with one create (the upsert): the same tag, one of that name", async () => {
    const before = out.tagUid;
    spec.digest = D2;
    await up();
    expect(await calls()).toEqual({ "POST /registry/V/tags/*": 1 });
    expect(out.tagUid).toBe(before);
    const tags = await irv.admin.tags.collect({ childrenOf: out.appUid });
    expect(tags.map((t) => [t.name, t.digest])).toEqual([["latest", D2]]);
  });

  it("adopts an existing object of each kind with the import option, creating nothing", async () => {
    const group = out.groupUid;
    const repo = await irv.admin.repos.create(group, { name: "old-repo" });
    const tag = await irv.admin.tags.create(repo.uid, { name: "v0", digest: D2 });
    const overlay = await irv.admin.overlays.create(group, {
      name: "old-overlay",
      config: { contents: { packages: ["bash"] } },
    });
    const binding = await irv.admin.overlayBindings.create(repo.uid, { overlay: overlay.uid, tags: ["v0"] });
    const subscription = await irv.admin.subscriptions.create(group, {
      sink: "https://old.example.com/hook",
    });
    const viewer = (await irv.admin.roles.list({ name: "viewer" })).items[0]?.uid ?? "";
    const mapping = await irv.admin.externalGroupRoleMappings.create(out.oktaUid, {
      externalGroupId: "old",
      roleUid: viewer,
      scope: irv.emulator.orgUid,
    });
    spec.imports = {
      repo: repo.uid,
      tag: tag.uid,
      overlay: overlay.uid,
      binding: binding.uid,
      subscription: subscription.uid,
      mapping: mapping.uid,
    };
    await up();
    expect(Object.keys(await calls()).filter((k) => !k.startsWith("GET "))).toEqual([]);
    expect(out.importedUids).toEqual(spec.imports);
    expect(await previewChanges(stack)).toEqual([]);
  });

  it("destroys in order: tags and bindings before their repo, the mapping before its identity provider", async () => {
    const result = await stack.destroy();
    expect(diagnostics(result.events, "error")).toEqual([]);
    expect(await irv.admin.repos.collect({ descendantsOf: out.groupUid })).toEqual([]);
    expect(await irv.admin.groups.find(out.groupUid)).toBeUndefined();
  });
});
