// The RESOURCE_NOT_EMPTY handling of the provider's group delete, against the emulator over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import { deleteGroup } from "../../../provider/runtime/index.js";
import { IrvClient } from "../../../sdk/index.js";

describe("deleteGroup", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let client: IrvClient;

  beforeAll(async () => {
    emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
    client = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  it("waits while the children are being deleted by someone else, then deletes the group", async () => {
    const parent = await client.groups.create(emulator.orgUid, { name: "parent" });
    const kids = await Promise.all(["a", "b", "c"].map((n) => client.groups.create(parent.uid, { name: n })));
    // The children go one by one, as parallel Pulumi steps would.
    const deleter = (async () => {
      for (const k of kids) {
        await new Promise((r) => setTimeout(r, 300));
        await client.groups.delete(k.uid);
      }
    })();
    await deleteGroup(client, parent.uid, "parent", { stallMs: 2000, maxMs: 20_000 });
    await deleter;
    expect(await client.groups.find(parent.uid)).toBeUndefined();
  });

  it("gives up once the blocking children stop changing and names each of them", async () => {
    const parent = await client.groups.create(emulator.orgUid, { name: "blocked" });
    const child = await client.groups.create(parent.uid, { name: "left-behind" });
    const ident = await client.identities.create(parent.uid, {
      name: "ci",
      claimMatch: { issuer: "https://i.example", subject: "s" },
    });
    const started = Date.now();
    const err = (await deleteGroup(client, parent.uid, "blocked", { stallMs: 600, maxMs: 10_000 }).catch(
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
      deleteGroup(client, `${emulator.orgUid}/0123456789abcdef`, "ghost"),
    ).resolves.toBeUndefined();
  });
});
