// The real engine against an emulator that fails requests on purpose: 503s, 429s and connection
// resets, including resets that strike after a create was made (the answer is lost, the group
// exists). The provider must converge to exactly the declared resources — a create whose answer was
// lost is found, never sent again — and destroy must leave nothing behind.
import { describe, expect, it } from "vitest";
import { diagnostics } from "../harness/index.js";
import type { OrgTreeShape } from "../support/org-tree.js";
import { declared, inventory, seededRandom, useOrgTreeStack } from "../support/org-tree.js";

const EMPTY = { groups: [], identities: [], bindings: [] };
const POSTS = ["POST /iam/v2/groups/*", "POST /iam/v2/identities/*", "POST /iam/v2/roleBindings/*"];

describe("an up and a destroy through 10 % 503, 5 % 429 and 2 % connection resets", () => {
  const shape: OrgTreeShape = { groups: 20, identities: 20, bindings: 20, prefix: "flaky" };
  const t = useOrgTreeStack(shape, { random: seededRandom(20_261_121) });

  it("converges: the emulator holds exactly the 60 declared resources, none twice", async () => {
    t.irv.emulator.setFaults("503=0.1,429=0.05,reset=0.02");
    const up = await t.stack.up();
    const requests = (await t.irv.stats()).total;
    t.irv.emulator.setFaults("none");

    expect(diagnostics(up.events, "error")).toEqual([]);
    expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
    expect(await t.stack.resources()).toHaveLength(60);
    // The faults did strike: far more requests than the 60 creates and one role lookup.
    expect(requests).toBeGreaterThan(61);
    // And the state matches the service: a preview finds nothing to do.
    await t.stack.preview({ args: ["--expect-no-changes"] });
  });

  it("destroys every resource under the same faults, leaving nothing behind", async () => {
    t.irv.emulator.setFaults("503=0.1,429=0.05,reset=0.02");
    const destroy = await t.stack.destroy();
    t.irv.emulator.setFaults("none");

    expect(diagnostics(destroy.events, "error")).toEqual([]);
    expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(EMPTY);
    expect(await t.stack.resources()).toEqual([]);
  });
});

describe("creates whose answers are lost after the write", () => {
  const shape: OrgTreeShape = { groups: 10, identities: 10, bindings: 10, prefix: "lost" };
  const t = useOrgTreeStack(shape, { random: seededRandom(7) });

  it("are found by name instead of being sent again: one POST per resource, no ALREADY_EXISTS", async () => {
    // A third of all requests make their change and then lose the connection before answering.
    t.irv.emulator.setFaults("reset-after=0.3");
    await t.irv.resetStats();
    const up = await t.stack.up();
    const { requests } = await t.irv.stats();
    t.irv.emulator.setFaults("none");

    expect(diagnostics(up.events, "error")).toEqual([]);
    expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
    // Every create was sent exactly once: each lost answer was resolved by a lookup, not a resend
    // (a resend would have been refused with ALREADY_EXISTS and failed the up).
    expect(POSTS.map((route) => requests[route] ?? 0)).toEqual([10, 10, 10]);
    // Lookups happened (lists by name or of the group's bindings), so answers were really lost.
    const lookups =
      (requests["GET /iam/v2/groups"] ?? 0) +
      (requests["GET /iam/v2/identities"] ?? 0) +
      (requests["GET /iam/v2/roleBindings"] ?? 0);
    expect(lookups).toBeGreaterThan(0);
    // The state records the uids the service gave, so nothing changes on the next preview.
    await t.stack.preview({ args: ["--expect-no-changes"] });
  });

  it("and deletes whose answers are lost count as done", async () => {
    t.irv.emulator.setFaults("reset-after=0.3");
    await t.stack.destroy();
    t.irv.emulator.setFaults("none");
    expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(EMPTY);
  });
});
