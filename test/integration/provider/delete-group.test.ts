// The RESOURCE_NOT_EMPTY handling of the provider's group delete, against the emulator over HTTP.
import { describe, expect, it } from "vitest";
import { deleteGroup } from "../../../provider/runtime/index.js";
import { useAdminClient } from "../support/admin-client.js";

describe("deleteGroup", () => {
  const ctx = useAdminClient();

  it("waits while the children are being deleted by someone else, then deletes the group", async () => {
    const parent = await ctx.client.groups.create(ctx.emulator.orgUid, { name: "parent" });
    const kids = await Promise.all(
      ["a", "b", "c"].map((n) => ctx.client.groups.create(parent.uid, { name: n })),
    );
    // The children go one by one, as parallel Pulumi steps would.
    const deleter = (async () => {
      for (const k of kids) {
        await new Promise((r) => setTimeout(r, 300));
        await ctx.client.groups.delete(k.uid);
      }
    })();
    await deleteGroup(ctx.client, parent.uid, "parent", { stallMs: 2000, maxMs: 20_000 });
    await deleter;
    expect(await ctx.client.groups.find(parent.uid)).toBeUndefined();
  });

  it("gives up once the blocking children stop changing and names each of them", async () => {
    const parent = await ctx.client.groups.create(ctx.emulator.orgUid, { name: "blocked" });
    const child = await ctx.client.groups.create(parent.uid, { name: "left-behind" });
    const ident = await ctx.client.identities.create(parent.uid, {
      name: "ci",
      claimMatch: { issuer: "https://i.example", subject: "s" },
    });
    const started = Date.now();
    const err = (await deleteGroup(ctx.client, parent.uid, "blocked", { stallMs: 600, maxMs: 10_000 }).catch(
      (e) => e,
    )) as Error;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err.message).toContain(`group "blocked" (uid ${parent.uid}) cannot be deleted`);
    expect(err.message).toContain(`group "left-behind" (uid ${child.uid})`);
    expect(err.message).toContain(`identity "ci" (uid ${ident.uid})`);
    expect(err.message).toContain("dependsOn");
  });

  it("treats a group that is already gone as deleted", async () => {
    await expect(
      deleteGroup(ctx.client, `${ctx.emulator.orgUid}/0123456789abcdef`, "ghost"),
    ).resolves.toBeUndefined();
  });
});
