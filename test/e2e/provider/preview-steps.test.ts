// What a pull request's `pulumi preview` announces, on the real engine against the emulator: a
// three-level group tree (top → middle → leaf) with an identity in the middle group and a role
// binding there. The preview must announce exactly what `up` then does — no replacement that `up`
// does not make (issue 17 part 1), and every replacement that a real move forces.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { resourceRoutes, startTestEmulator } from "../support/irv-emulator.js";
import { previewChanges } from "../support/preview-steps.js";

type Spec = {
  groups: { key: string; parent: string; description?: string; import?: string }[];
  identities: { key: string; group: string; subject: string }[];
  bindings: { key: string; group: string; identity: string; role: string }[];
  reads?: { key: string; uid: string }[];
};

const spec: Spec = {
  groups: [
    { key: "top", parent: "org", description: "Top" },
    { key: "other", parent: "org", description: "Another top" },
    { key: "middle", parent: "top", description: "Middle" },
    { key: "leaf", parent: "middle", description: "Leaf" },
  ],
  identities: [{ key: "ci", group: "middle", subject: "repo:acme/middle:ref:refs/heads/main" }],
  bindings: [{ key: "ci-viewer", group: "middle", identity: "ci", role: "viewer" }],
};
const middle = () => spec.groups.find((g) => g.key === "middle") as Spec["groups"][number];

describe("preview announces exactly what up does", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let uids: Record<string, Record<string, string>>;

  const declare = async () => {
    await stack.setConfig({ spec: JSON.stringify(spec) });
    await irv.resetStats();
  };
  const up = async () => {
    await irv.resetStats();
    uids = (await stack.up()).outputs as typeof uids;
  };

  beforeAll(async () => {
    irv = await startTestEmulator();
    stack = await createStack({
      program: fixtureDir("org-program"),
      config: { ...irv.config, spec: JSON.stringify(spec) },
    });
    await up();
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("previews no step and calls no resource API when nothing changed", async () => {
    await irv.resetStats();
    expect(await previewChanges(stack)).toEqual([]);
    expect(resourceRoutes((await irv.stats()).requests)).toEqual({});
  });

  it("previews a description edit of the middle group as one update, not as replacements of its children (issue 17 false replacements)", async () => {
    middle().description = "Middle, edited";
    await declare();
    expect(await previewChanges(stack)).toEqual(["update middle [description]"]);
    expect(resourceRoutes((await irv.stats()).requests)).toEqual({});

    const before = uids;
    await up();
    const stats = await irv.stats();
    expect(resourceRoutes(stats.requests)).toEqual({ "PATCH /iam/v2/groups/*": 1 });
    expect(stats.updateMasks).toEqual({ description: 1 });
    expect(uids).toEqual(before);
    expect(await previewChanges(stack)).toEqual([]);
  });

  it("previews a parentUid change as the replacement of the group and of exactly what lives in it", async () => {
    middle().parent = "other";
    await declare();
    // The uid of everything below the middle group embeds its uid, so all of it moves with it; the
    // top groups stay.
    expect(await previewChanges(stack)).toEqual([
      "replace ci [groupUid]",
      "replace ci-viewer [groupUid]",
      "replace leaf [parentUid]",
      "replace middle [parentUid]",
    ]);

    const before = uids;
    await up();
    expect(uids.groupUids?.middle?.startsWith(`${before.groupUids?.other}/`)).toBe(true);
    expect(uids.groupUids?.leaf?.startsWith(`${uids.groupUids?.middle}/`)).toBe(true);
    expect(uids.identityUids?.ci?.startsWith(`${uids.groupUids?.middle}/`)).toBe(true);
    expect(uids.groupUids?.top).toBe(before.groupUids?.top);
    expect(await irv.admin.groups.find(before.groupUids?.middle as string)).toBeUndefined();
    expect(await previewChanges(stack)).toEqual([]);
  });

  it("gives the server's uid to a group read with get() and to one adopted with the import option", async () => {
    const org = irv.emulator.orgUid;
    const read = await irv.admin.groups.create(org, { name: "read-only", description: "Not managed here" });
    const adopted = await irv.admin.groups.create(org, {
      name: "adopted",
      description: "Made before Pulumi",
    });
    spec.reads = [{ key: "read-only", uid: read.uid }];
    spec.groups.push({
      key: "adopted",
      parent: "org",
      description: "Made before Pulumi",
      import: adopted.uid,
    });
    await declare();
    await up();
    expect(uids.readUids).toEqual({ "read-only": read.uid });
    expect((uids as unknown as { readNames: Record<string, string> }).readNames).toEqual({
      "read-only": "read-only",
    });
    expect(uids.groupUids?.adopted).toBe(adopted.uid);
    expect(resourceRoutes((await irv.stats()).requests)["POST /iam/v2/groups/*"]).toBeUndefined();
    // A resource read with get() is read again by every preview; nothing else moves.
    expect(await previewChanges(stack)).toEqual(["read read-only []"]);
    // A group read with get() is not managed: destroy leaves it.
    spec.reads = [];
    await declare();
    await up();
    expect(await irv.admin.groups.find(read.uid)).toMatchObject({ name: "read-only" });
  });
});
