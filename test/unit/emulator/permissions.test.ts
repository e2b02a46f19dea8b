import { expect, test } from "vitest";
import { Caller, Level } from "../../../emulator/auth/index.js";

const org = "0".repeat(40);
const a = `${org}/aaaaaaaaaaaaaaaa`;
const ab = `${a}/bbbbbbbbbbbbbbbb`;
const c = `${org}/cccccccccccccccc`;

test("a grant covers its group and everything below, not siblings or ancestors", () => {
  const caller = new Caller("t", org, [{ scope: a, level: Level.WRITE }]);
  expect(caller.can(Level.WRITE, a)).toBe(true);
  expect(caller.can(Level.READ, ab)).toBe(true);
  expect(caller.can(Level.ADMIN, ab)).toBe(false);
  expect(caller.can(Level.READ, c)).toBe(false);
  expect(caller.can(Level.READ, org)).toBe(false);
  expect(caller.can(Level.READ, `${a}x`)).toBe(false);
});

test("the highest of several grants wins", () => {
  const caller = new Caller("t", org, [
    { scope: a, level: Level.READ },
    { scope: ab, level: Level.ADMIN },
  ]);
  expect(caller.levelAt(ab)).toBe(Level.ADMIN);
  expect(caller.levelAt(a)).toBe(Level.READ);
});

test("readable scopes are minimal, and undefined for a root-level reader", () => {
  expect(
    new Caller("t", org, [
      { scope: a, level: Level.READ },
      { scope: ab, level: Level.WRITE },
    ]).readableScopes,
  ).toEqual([a]);
  expect(new Caller("t", org, [{ scope: org, level: Level.READ }]).readableScopes).toBeUndefined();
  expect(new Caller("t", org, [{ scope: a, level: Level.NONE }]).readableScopes).toEqual([]);
});

test("a root grant covers any uid, even one outside the organization", () => {
  const admin = new Caller("admin", org, [{ scope: org, level: Level.ADMIN }]);
  expect(admin.can(Level.ADMIN, "not-a-uid")).toBe(true);
});
