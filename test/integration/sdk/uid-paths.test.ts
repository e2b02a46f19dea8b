// Malformed uids against the real emulator over HTTP: URL parsing resolves dot segments, so a uid
// such as `../identities/<uid>` used to reach (and delete) another resource.
import { describe, expect, it } from "vitest";
import { groupKind, identityKind, makeProvider } from "../../../provider/runtime/index.js";
import { InvalidArgumentError } from "../../../sdk/index.js";
import { useAdminClient } from "../support/admin-client.js";

describe("uids are checked before they become paths", () => {
  const ctx = useAdminClient();

  const identityIn = async (groupName: string) => {
    const group = await ctx.client.groups.create(ctx.emulator.orgUid, { name: groupName });
    const identity = await ctx.client.identities.create(group.uid, {
      name: "ci",
      claimMatch: { issuer: "https://issuer.example.com", subject: "repo:acme/app" },
    });
    return { group, identity };
  };

  it("regression (groups.delete('../identities/<uid>') deleted an identity): refuses the uid, naming the argument, and deletes nothing", async () => {
    const { identity } = await identityIn("traversal");
    const err = await ctx.client.groups.delete(`../identities/${identity.uid}`).catch((e) => e);
    expect(await ctx.client.identities.find(identity.uid)).toMatchObject({ uid: identity.uid });
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err.argument).toBe("uid");
    expect(err.message).toMatch(/^uid must be 40 lowercase hex digits/);
  });

  it("refuses encoded dot segments, empty segments and a trailing slash in every path-building call", async () => {
    const { group } = await identityIn("malformed");
    const bad = [
      `${group.uid}/%2e%2e`,
      `${group.uid}/..`,
      `${ctx.emulator.orgUid}//${group.uid.slice(41)}`,
      `${group.uid}/`,
      "",
    ];
    for (const uid of bad) {
      await expect(ctx.client.groups.get(uid)).rejects.toMatchObject({ argument: "uid" });
      await expect(ctx.client.groups.update(uid, { description: "x" })).rejects.toMatchObject({
        argument: "uid",
      });
      await expect(ctx.client.groups.delete(uid)).rejects.toMatchObject({ argument: "uid" });
      await expect(ctx.client.groups.create(uid, { name: "child" })).rejects.toMatchObject({
        argument: "parentUid",
      });
    }
    await expect(ctx.client.roles.get(`${group.uid}`)).rejects.toMatchObject({ argument: "uid" });
    expect((await ctx.client.groups.get(group.uid)).description).toBeUndefined();
  });

  it("refuses a traversing state or import id in the provider before any request", async () => {
    const { group, identity } = await identityIn("state-ids");
    const groups = makeProvider(groupKind, () => ctx.client);
    const identities = makeProvider(identityKind, () => ctx.client);
    const sneaky = `${group.uid}/../../identities/${identity.uid}`;
    await expect(groups.delete(sneaky, { name: "x" })).rejects.toThrow(/^deleting group .*: uid must be/);
    await expect(groups.read(sneaky, {})).rejects.toThrow(/^reading group .*: uid must be/);
    await expect(identities.read(`${identity.uid}/`, {})).rejects.toThrow(/uid must be/);
    expect(await ctx.client.identities.find(identity.uid)).toMatchObject({ uid: identity.uid });
  });
});
