// The real engine against an emulator enforcing a tight per-caller rate limit (4 requests per
// second, bursts of 1): the provider process starts with 16 requests in flight, gets a storm of 429
// RESOURCE_EXHAUSTED answers, and must neither fail the up nor waste calls — each refused request is
// sent again at the pace its adaptive limiter learns, never looked up and never counted as a retry.
import { describe, expect, it } from "vitest";
import { diagnostics } from "../harness/index.js";
import type { OrgTreeShape } from "../support/org-tree.js";
import { declared, inventory, useOrgTreeStack } from "../support/org-tree.js";

const EMPTY = { groups: [], identities: [], bindings: [] };
const LIMIT = "4,burst=1";

describe("a 429 storm under a rate limit of 4 requests per second", () => {
  const shape: OrgTreeShape = { groups: 15, identities: 15, bindings: 15, prefix: "storm" };
  const t = useOrgTreeStack(shape);

  it("never fails an up: every resource is created once, and every accepted request was needed", async () => {
    t.irv.emulator.setRateLimit(LIMIT);
    await t.irv.resetStats();
    const up = await t.stack.up();
    const stats = await t.irv.stats();
    t.irv.emulator.setRateLimit("none");

    expect(diagnostics(up.events, "error")).toEqual([]);
    expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
    // The storm happened…
    expect(stats.rateLimited).toBeGreaterThan(0);
    // …and cost nothing but the refused requests themselves: 45 creates and the one role lookup
    // of the program's getRole were accepted, no lost-create lookup was made.
    expect(stats.total - (stats.rateLimited ?? 0)).toBe(46);
    expect(stats.requests["GET /iam/v2/groups"]).toBeUndefined();
    await t.stack.preview({ args: ["--expect-no-changes"] });
  });

  it("never fails a destroy either: one accepted DELETE per resource", async () => {
    t.irv.emulator.setRateLimit(LIMIT);
    await t.irv.resetStats();
    const destroy = await t.stack.destroy();
    const stats = await t.irv.stats();
    t.irv.emulator.setRateLimit("none");

    expect(diagnostics(destroy.events, "error")).toEqual([]);
    expect(await inventory(t.irv.admin, t.irv.emulator.orgUid, shape.prefix)).toEqual(EMPTY);
    expect(stats.rateLimited).toBeGreaterThan(0);
    expect(stats.total - (stats.rateLimited ?? 0)).toBe(45);
  });
});
