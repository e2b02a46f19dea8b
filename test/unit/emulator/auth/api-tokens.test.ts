// ApiTokens remembers the tokens it accepted (issue 40: no hash or signature check per request).
// What must not change with it: an expired token is refused on the very next request although it
// was accepted just before, a refused token stays refused, and the admin token stays the admin.
import { expect, test } from "vitest";
import type { KeyStore } from "../../../../emulator/auth/index.js";
import { ApiTokens, loadOrCreateSigningKey } from "../../../../emulator/auth/index.js";

const meta = new Map<string, string>();
const store: KeyStore = { getMeta: (k) => meta.get(k), setMeta: (k, v) => void meta.set(k, v) };
const uid = `${"0".repeat(40)}/0123456789abcdef`;

async function tokens(clock: () => number, audience = "http://127.0.0.1:1") {
  return new ApiTokens({
    key: await loadOrCreateSigningKey(store, "apiSigningKey"),
    issuer: "http://127.0.0.1:1/auth",
    audience,
    ttlSeconds: 3600,
    clock,
    adminToken: "the-admin-token",
  });
}

const code16 = (message: RegExp) =>
  expect.objectContaining({ code: 16, message: expect.stringMatching(message) });

test("an exchanged token accepted a moment ago is refused as expired on the very next request past its expiry", async () => {
  let now = Date.parse("2026-11-28T01:00:00Z");
  const t = await tokens(() => now);
  const token = await t.mint(uid);
  for (let i = 0; i < 3; i++)
    expect(await t.authenticate(`Bearer ${token}`)).toEqual({ kind: "identity", uid });
  now += 3600 * 1000 - 1;
  expect(await t.authenticate(`Bearer ${token}`)).toEqual({ kind: "identity", uid });
  now += 1;
  await expect(t.authenticate(`Bearer ${token}`)).rejects.toEqual(code16(/expired/));
  await expect(t.authenticate(`Bearer ${token}`)).rejects.toEqual(code16(/expired/));
});

test("the admin token is the admin every time; a wrong or foreign token is refused every time, also after the admin was accepted", async () => {
  const t = await tokens(Date.now);
  const foreign = await (await tokens(Date.now, "https://elsewhere.example")).mint(uid);
  for (let i = 0; i < 2; i++) {
    expect(await t.authenticate("Bearer the-admin-token")).toEqual({ kind: "admin" });
    await expect(t.authenticate("Bearer the-admin-tokem")).rejects.toEqual(code16(/not a valid token/));
    await expect(t.authenticate("Bearer the-admin-token-")).rejects.toEqual(code16(/not a valid token/));
    await expect(t.authenticate(`Bearer ${foreign}`)).rejects.toEqual(code16(/audience/));
  }
  expect(await t.authenticate("bearer   the-admin-token ")).toEqual({ kind: "admin" });
});

test("a principal handed out cannot be changed into another one for the next caller", async () => {
  const t = await tokens(Date.now);
  const token = await t.mint(uid);
  const first = await t.authenticate(`Bearer ${token}`);
  expect(() => Object.assign(first, { uid: "someone-else" })).toThrow(TypeError);
  const admin = await t.authenticate("Bearer the-admin-token");
  expect(() => Object.assign(admin, { kind: "identity", uid })).toThrow(TypeError);
  expect(await t.authenticate(`Bearer ${token}`)).toEqual({ kind: "identity", uid });
  expect(await t.authenticate("Bearer the-admin-token")).toEqual({ kind: "admin" });
});
