// The emulator's Date header tells its own clock (the `clock` option), as its createTime does:
// clients measure the offset between the service's clock and theirs from it (pulumi-irv recover,
// issue 25), so tests that move the emulator's clock must see the header move too.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

const AHEAD_MS = 3 * 3_600_000;
let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ clock: () => Date.now() + AHEAD_MS });
});
afterAll(() => emu.close());

test("every answer's Date header is the emulator's clock, also an unauthenticated 401, and agrees with createTime", async () => {
  const created = await emu.call<{ createTime: string }>("POST", `/iam/v2beta1/groups/${emu.orgUid}`, {
    body: { name: "dated" },
  });
  const refused = await emu.call("GET", "/iam/v2beta1/groups", { token: "" });
  expect(refused.status).toBe(401);
  for (const answer of [created, refused]) {
    const date = Date.parse(answer.headers.get("date") ?? "");
    expect(Math.abs(date - (Date.now() + AHEAD_MS))).toBeLessThan(60_000);
  }
  const createTime = Date.parse(created.body.createTime);
  expect(Math.abs(Date.parse(created.headers.get("date") ?? "") - createTime)).toBeLessThan(2_000);
});
