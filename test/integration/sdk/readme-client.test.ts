// The README's "typed client" snippet, run as written against the emulator through the package's
// public entry point (test/unit/readme.test.ts checks the README still shows this code).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";

describe("the README's client snippet", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it("creates a group, clears its description and lists it", async () => {
    const { baseUrl, adminToken: token, orgUid } = emulator;
    const logged: string[] = [];
    const console = { log: (s: string) => logged.push(s) };
    // --- README snippet ---
    const { IrvClient } = await import("pulumi-irv/sdk");

    const client = new IrvClient({ baseUrl, token });
    const team = await client.groups.create(orgUid, { name: "team-a" });
    await client.groups.update(team.uid, {}, { updateMask: ["description"] }); // clears the description
    for await (const g of client.groups.listAll({ descendantsOf: orgUid, orderBy: "name" }))
      console.log(g.name);
    // --- end ---
    expect(logged).toEqual(["team-a"]);
    await client.close();
  });
});
