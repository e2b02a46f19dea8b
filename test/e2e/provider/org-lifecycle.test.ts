// The provider end to end: the real Pulumi engine runs a program of Groups, Identities and
// RoleBindings against a fresh emulator, through create, update, clear, rename, move, drift,
// out-of-band delete, import and destroy, and the emulator's request counters prove the minimal
// number of API calls per step.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationResult, TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { resourceRoutes, startTestEmulator } from "../support/irv-emulator.js";

type Spec = {
  groups?: { key: string; parent: string; name?: string; description?: string; import?: string }[];
  identities?: { key: string; group: string; name?: string; description?: string; subject: string }[];
  bindings?: { key: string; group: string; identity: string; role: string }[];
};

const BASE: Spec = {
  groups: [
    { key: "platform", parent: "org", description: "Platform engineering" },
    { key: "team-a", parent: "platform", description: "Team A" },
    { key: "team-b", parent: "platform", description: "Team B" },
  ],
  identities: [
    {
      key: "team-a-ci",
      group: "team-a",
      description: "CI of team A",
      subject: "repo:acme/team-a:ref:refs/heads/main",
    },
  ],
  bindings: [{ key: "team-a-ci-viewer", group: "team-a", identity: "team-a-ci", role: "viewer" }],
};

// The declared spec; each step changes it and keeps the change for the steps after it.
const current = structuredClone(BASE) as Required<Spec>;
const withSpec = (change: (s: Required<Spec>) => void): Spec => {
  change(current);
  return current;
};

describe("Group, Identity and RoleBinding on the real engine", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let outputs: Record<string, Record<string, string>>;
  const groupUid = (key: string) => outputs.groupUids?.[key] as string;

  const apply = async (spec: Spec): Promise<OperationResult> => {
    await stack.setConfig({ spec: JSON.stringify(spec) });
    await irv.resetStats();
    const result = await stack.up();
    outputs = result.outputs as typeof outputs;
    return result;
  };

  beforeAll(async () => {
    irv = await startTestEmulator();
    stack = await createStack({
      program: fixtureDir("org-program"),
      config: { ...irv.config, spec: JSON.stringify(BASE) },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("creates the org tree with one POST per resource", async () => {
    const result = await apply(current);
    expect(diagnostics(result.events, "error")).toEqual([]);
    const stats = await irv.stats();
    expect(stats.requests["POST /iam/v2/groups/*"]).toBe(3);
    expect(stats.requests["POST /iam/v2/identities/*"]).toBe(1);
    expect(stats.requests["POST /iam/v2/roleBindings/*"]).toBe(1);
    const teamA = await irv.admin.groups.get(groupUid("team-a"));
    expect(teamA).toMatchObject({ name: "team-a", description: "Team A" });
    expect(teamA.uid.startsWith(`${groupUid("platform")}/`)).toBe(true);
    expect(outputs.bindingRoles).toEqual({ "team-a-ci-viewer": "viewer" });
  });

  it("makes no resource API call on a preview without changes", async () => {
    await irv.resetStats();
    const result = await stack.preview({ args: ["--expect-no-changes"] });
    expect(result.exitCode).toBe(0);
    // Only the getRole data source reads the API during a preview.
    expect(resourceRoutes((await irv.stats()).requests)).toEqual({});
  });

  it("changes one description with exactly one PATCH whose updateMask is description", async () => {
    await apply(
      withSpec((s) => {
        s.groups[1]!.description = "Team A, payments";
      }),
    );
    const stats = await irv.stats();
    expect(resourceRoutes(stats.requests)).toEqual({ "PATCH /iam/v2/groups/*": 1 });
    expect(stats.updateMasks).toEqual({ description: 1 });
    expect((await irv.admin.groups.get(groupUid("team-a"))).description).toBe("Team A, payments");
  });

  it("clears a removed description through the update mask", async () => {
    await apply(
      withSpec((s) => {
        delete s.groups[1]!.description;
      }),
    );
    expect((await irv.stats()).updateMasks).toEqual({ description: 1 });
    expect((await irv.admin.groups.get(groupUid("team-a"))).description ?? "").toBe("");
  });

  it("renames a group in place, keeping its uid", async () => {
    const before = groupUid("team-b");
    await apply(
      withSpec((s) => {
        s.groups[2]!.name = "team-b-renamed";
      }),
    );
    expect((await irv.stats()).updateMasks).toEqual({ name: 1 });
    expect(groupUid("team-b")).toBe(before);
    expect((await irv.admin.groups.get(before)).name).toBe("team-b-renamed");
  });

  it("moves a group to another parent by replacing it", async () => {
    const before = groupUid("team-b");
    await apply(
      withSpec((s) => {
        s.groups[2] = { key: "team-b", parent: "org", name: "team-b-renamed", description: "Team B" };
      }),
    );
    const after = groupUid("team-b");
    expect(after).not.toBe(before);
    expect(after.split("/")).toHaveLength(2);
    expect(await irv.admin.groups.find(before)).toBeUndefined();
  });

  it("shows an out-of-band edit as drift on refresh, and up puts the declared value back", async () => {
    const uid = groupUid("platform");
    await irv.admin.groups.update(uid, { description: "edited by hand" }, { updateMask: ["description"] });
    const refresh = await stack.refresh();
    expect(refresh.stdout).toMatch(/platform/);
    const state = await stack.resources();
    expect(state.find((r) => r.id === uid)?.outputs?.description).toBe("edited by hand");
    await irv.resetStats();
    await stack.up();
    expect((await irv.stats()).updateMasks).toEqual({ description: 1 });
    expect((await irv.admin.groups.get(uid)).description).toBe("Platform engineering");
  });

  it("drops a resource deleted out of band on refresh, and up creates it again", async () => {
    const uid = outputs.bindingUids?.["team-a-ci-viewer"] as string;
    await irv.admin.roleBindings.delete(uid);
    await stack.refresh();
    expect((await stack.resources()).some((r) => r.id === uid)).toBe(false);
    await irv.resetStats();
    const result = await stack.up();
    outputs = result.outputs as typeof outputs;
    expect(resourceRoutes((await irv.stats()).requests)).toMatchObject({
      "POST /iam/v2/roleBindings/*": 1,
    });
    expect(outputs.bindingUids?.["team-a-ci-viewer"]).not.toBe(uid);
  });

  it("adopts an existing group with the import option, without creating it", async () => {
    const existing = await irv.admin.groups.create(groupUid("platform"), {
      name: "legacy",
      description: "Made before Pulumi",
    });
    await apply(
      withSpec((s) => {
        s.groups.push({
          key: "legacy",
          parent: "platform",
          name: "legacy",
          description: "Made before Pulumi",
          import: existing.uid,
        });
      }),
    );
    expect(groupUid("legacy")).toBe(existing.uid);
    expect(resourceRoutes((await irv.stats()).requests)["POST /iam/v2/groups/*"]).toBeUndefined();
    // Once imported, the option can go: the group is managed like any other.
    delete current.groups.at(-1)!.import;
    await stack.setConfig({ spec: JSON.stringify(current) });
    await stack.preview({ args: ["--expect-no-changes"] });
  });

  it("fails the preview of an invalid group name with the pattern, before any API call", async () => {
    const bad = structuredClone(current);
    bad.groups.push({ key: "bad", parent: "platform", name: "Bad Name" });
    await stack.setConfig({ spec: JSON.stringify(bad) });
    await irv.resetStats();
    const result = await stack.preview({ allowFailure: true });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout + result.stderr).toContain(
      "group name must match the pattern ^[a-z0-9 ._-]{1,}$ (got a string of 8 characters)",
    );
    expect(resourceRoutes((await irv.stats()).requests)).toEqual({});
    await stack.setConfig({ spec: JSON.stringify(current) });
  });

  it("keeps the API token out of the state in plain text", async () => {
    const state = await stack.exportState();
    const text = JSON.stringify(state);
    expect(text).not.toContain(irv.emulator.adminToken);
    const provider = state.deployment.resources?.find((r) => r.type === "pulumi-nodejs:dynamic/irv:Group")
      ?.outputs?.__provider;
    expect(typeof provider).toBe("string");
    expect((provider as string).length).toBeLessThan(1024);
  });

  // Regression: the engine recorded a line of pulumi-irv's IrvResource as every resource's source
  // position (what Pulumi Cloud links to), not the program's line that declared it.
  it("records the program's own line as each resource's source position", async () => {
    const ours = ((await stack.exportState()).deployment.resources ?? []).filter((r) =>
      r.type.startsWith("pulumi-nodejs:dynamic/irv:"),
    );
    expect(ours.length).toBeGreaterThan(0);
    for (const r of ours) expect(String(r.sourcePosition)).toMatch(/org-program\/index\.js#\d+,\d+$/);
  });

  it("destroys everything it made, leaving the emulator's org empty", async () => {
    await stack.destroy();
    const org = irv.emulator.orgUid;
    expect(await irv.admin.groups.collect({ descendantsOf: org })).toEqual([]);
    expect(await irv.admin.identities.collect({ descendantsOf: org })).toEqual([]);
    expect(await irv.admin.roleBindings.collect({ descendantsOf: org })).toEqual([]);
  });
});
