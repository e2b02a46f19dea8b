// A create whose answer is lost, against the real emulator: the `reset-before` fault drops the
// connection before the emulator acts, so the lookup finds only what existed before.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../sdk/index.js";
import { useAdminClient } from "../support/admin-client.js";

describe("a lost create is found, not mistaken", () => {
  const ctx = useAdminClient({ retry: { maxAttempts: 4, initialDelayMs: 1, maxDelayMs: 5, multiplier: 2 } });

  /** Creates `name` under the root with every POST's connection reset until the lookup runs. */
  const createThroughLostAnswer = (
    body: { name: string; description?: string },
    fault: string,
    clockSkewMs?: number,
  ) => {
    ctx.emulator.setFaults(fault);
    return ctx.client.groups.create(ctx.emulator.orgUid, body, {
      clockSkewMs,
      findExisting: async () => {
        ctx.emulator.setFaults("none");
        return (await ctx.client.groups.list({ childrenOf: ctx.emulator.orgUid, name: body.name })).items[0];
      },
    });
  };

  it("regression (a lost create adopted someone else's resource of the same name): a different description is ALREADY_EXISTS naming the uid", async () => {
    const theirs = await ctx.client.groups.create(ctx.emulator.orgUid, {
      name: "shared",
      description: "theirs",
    });
    const err = await createThroughLostAnswer(
      { name: "shared", description: "mine" },
      "reset-before=1",
    ).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.codeName).toBe("ALREADY_EXISTS");
    expect(err.message).toContain(`(uid ${theirs.uid})`);
    expect(err.message).toContain("its description differs");
  });

  it("regression (a lost create adopted an older resource with the same fields): one created before the attempt began is ALREADY_EXISTS", async () => {
    const older = await ctx.client.groups.create(ctx.emulator.orgUid, { name: "older" });
    // The emulator shares our clock, so no skew allowance is needed: let one millisecond pass.
    await new Promise((r) => setTimeout(r, 5));
    const err = await createThroughLostAnswer({ name: "older" }, "reset-before=1", 0).catch((e) => e);
    expect(err.codeName).toBe("ALREADY_EXISTS");
    expect(err.message).toMatch(new RegExp(`uid ${older.uid}.*created at .*before this create began`));
  });

  it("adopts the resource the lost attempt really made", async () => {
    const made = await createThroughLostAnswer({ name: "mine", description: "d" }, "reset-after=1");
    expect(made).toMatchObject({ name: "mine", description: "d" });
    expect(await ctx.client.groups.collect({ childrenOf: ctx.emulator.orgUid, name: "mine" })).toHaveLength(
      1,
    );
  });

  it("regression (a lost custom-role create was never adopted: its flat uid is not under the group): adopts the role the lost attempt made", async () => {
    const org = ctx.emulator.orgUid;
    ctx.emulator.setFaults("reset-after=1");
    const made = await ctx.client.roles.create(
      org,
      { name: "lost-role", capabilities: ["groups.list"] },
      {
        findExisting: async () => {
          ctx.emulator.setFaults("none");
          return (await ctx.client.roles.list({ childrenOf: org, name: "lost-role" })).items[0];
        },
      },
    );
    expect(made).toMatchObject({ name: "lost-role", capabilities: ["groups.list"] });
    expect(await ctx.client.roles.collect({ childrenOf: org, name: "lost-role" })).toHaveLength(1);
  });
});
