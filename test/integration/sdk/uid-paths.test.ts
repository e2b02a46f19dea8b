// Malformed uids against the real emulator over HTTP: URL parsing resolves dot segments, so a uid
// such as `../identities/<uid>` used to reach (and delete) another resource.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../../emulator/index.js";
import { groupKind, identityKind, makeProvider } from "../../../provider/runtime/index.js";
import { InvalidArgumentError, IrvClient } from "../../../sdk/index.js";

describe("uids are checked before they become paths", () => {
  let emulator: EmulatorHandle;
  let client: IrvClient;

  beforeAll(async () => {
    emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
    client = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  const identityIn = async (groupName: string) => {
    const group = await client.groups.create(emulator.orgUid, { name: groupName });
    const identity = await client.identities.create(group.uid, {
      name: "ci",
      claimMatch: { issuer: "https://issuer.example.com", subject: "repo:acme/app" },
    });
    return { group, identity };
  };

  it("regression (groups.delete('../identities/<uid>') deleted an identity): refuses the uid, naming the argument, and deletes nothing", async () => {
    const { identity } = await identityIn("traversal");
    const err = await client.groups.delete(`../identities/${identity.uid}`).catch((e) => e);
    expect(await client.identities.find(identity.uid)).toMatchObject({ uid: identity.uid });
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err.argument).toBe("uid");
    expect(err.message).toMatch(/^uid must be 40 lowercase hex digits/);
  });

  it("refuses encoded dot segments, empty segments and a trailing slash in every path-building call", async () => {
    const { group } = await identityIn("malformed");
    const bad = [
      `${group.uid}/%2e%2e`,
      `${group.uid}/..`,
      `${emulator.orgUid}//${group.uid.slice(41)}`,
      `${group.uid}/`,
      "",
    ];
    for (const uid of bad) {
      await expect(client.groups.get(uid)).rejects.toMatchObject({ argument: "uid" });
      await expect(client.groups.update(uid, { description: "x" })).rejects.toMatchObject({
        argument: "uid",
      });
      await expect(client.groups.delete(uid)).rejects.toMatchObject({ argument: "uid" });
      await expect(client.groups.create(uid, { name: "child" })).rejects.toMatchObject({
        argument: "parentUid",
      });
    }
    await expect(client.roles.get(`${group.uid}`)).rejects.toMatchObject({ argument: "uid" });
    expect((await client.groups.get(group.uid)).description).toBeUndefined();
  });

  it("refuses a traversing state or import id in the provider before any request", async () => {
    const { group, identity } = await identityIn("state-ids");
    const groups = makeProvider(groupKind, () => client);
    const identities = makeProvider(identityKind, () => client);
    const sneaky = `${group.uid}/../../identities/${identity.uid}`;
    await expect(groups.delete(sneaky, { name: "x" })).rejects.toThrow(/^deleting group .*: uid must be/);
    await expect(groups.read(sneaky, {})).rejects.toThrow(/^reading group .*: uid must be/);
    await expect(identities.read(`${identity.uid}/`, {})).rejects.toThrow(/uid must be/);
    expect(await client.identities.find(identity.uid)).toMatchObject({ uid: identity.uid });
  });
});
