// The emulator remembers the API tokens it accepted (issue 40: no hash or signature check per
// request). A token must still lose its power on the very next request once its identity is
// deleted or its binding is gone, although it was accepted just before.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ErrorBody, TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

async function boundToken(
  groupUid: string,
): Promise<{ token: string; identityUid: string; bindingUid: string }> {
  const identity = await emu.identity(emu.orgUid, `reader-of-${groupUid.slice(-6)}`);
  const binding = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${groupUid}`, {
    body: { identityUid: identity.uid, roleUid: await emu.roleUid("viewer") },
  });
  const subject = identity.claimMatch.subject;
  const exchanged = await emu.exchange(await emu.workloadToken(subject), identity.uid);
  expect(exchanged.status).toBe(200);
  return { token: exchanged.body.token, identityUid: identity.uid, bindingUid: binding.uid };
}

test("a token accepted a moment ago is refused (code 16) on the next request once its identity is deleted", async () => {
  const team = await emu.group("accepted-a");
  const { token, identityUid } = await boundToken(team.uid);
  for (let i = 0; i < 2; i++)
    expect((await emu.call("GET", `/iam/v2beta1/groups/${team.uid}`, { token })).status).toBe(200);
  await emu.ok("DELETE", `/iam/v2beta1/identities/${identityUid}`);
  const refused = await emu.call<ErrorBody>("GET", `/iam/v2beta1/groups/${team.uid}`, { token });
  expect(refused.status).toBe(401);
  expect(refused.body.code).toBe(16);
  expect(refused.body.message).toContain("no longer exists");
});

test("a token accepted a moment ago loses a right (code 7) on the next request once the binding that gave it is deleted", async () => {
  const team = await emu.group("accepted-b");
  const { token, bindingUid } = await boundToken(team.uid);
  expect((await emu.call("GET", `/iam/v2beta1/groups/${team.uid}`, { token })).status).toBe(200);
  await emu.ok("DELETE", `/iam/v2beta1/roleBindings/${bindingUid}`);
  const denied = await emu.call<ErrorBody>("GET", `/iam/v2beta1/groups/${team.uid}`, { token });
  expect(denied.status).toBe(403);
  expect(denied.body.code).toBe(7);
});
