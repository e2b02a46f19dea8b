import { expect, test } from "vitest";
import { BUILT_IN_ROLES, Caller } from "../../../emulator/auth/index.js";
import type { Capability } from "../../../sdk/index.js";
import { CAPABILITIES } from "../../../sdk/index.js";

const org = "0".repeat(40);
const a = `${org}/aaaaaaaaaaaaaaaa`;
const ab = `${a}/bbbbbbbbbbbbbbbb`;
const c = `${org}/cccccccccccccccc`;
const caps = (...names: Capability[]) => new Set(names);

test("a grant covers its group and everything below, not siblings or ancestors", () => {
  const caller = new Caller("t", org, [{ scope: a, capabilities: caps("groups.list", "groups.update") }]);
  expect(caller.has("groups.update", a)).toBe(true);
  expect(caller.has("groups.list", ab)).toBe(true);
  expect(caller.has("groups.delete", ab)).toBe(false);
  expect(caller.has("groups.list", c)).toBe(false);
  expect(caller.has("groups.list", org)).toBe(false);
  expect(caller.has("groups.list", `${a}x`)).toBe(false);
});

test("capabilities of several grants add up where they overlap", () => {
  const caller = new Caller("t", org, [
    { scope: a, capabilities: caps("groups.list") },
    { scope: ab, capabilities: caps("roles.create") },
  ]);
  expect(caller.lacking(["groups.list", "roles.create"], ab)).toEqual([]);
  expect(caller.lacking(["groups.list", "roles.create"], a)).toEqual(["roles.create"]);
});

test("the scopes of a capability are minimal, and undefined for a root-level holder", () => {
  expect(
    new Caller("t", org, [
      { scope: a, capabilities: caps("groups.list") },
      { scope: ab, capabilities: caps("groups.list", "groups.update") },
    ]).scopesWith("groups.list"),
  ).toEqual([a]);
  expect(
    new Caller("t", org, [{ scope: org, capabilities: caps("groups.list") }]).scopesWith("groups.list"),
  ).toBeUndefined();
  expect(new Caller("t", org, [{ scope: a, capabilities: caps() }]).scopesWith("groups.list")).toEqual([]);
});

test("a root grant covers any uid, even one outside the organization", () => {
  const admin = new Caller("admin", org, [{ scope: org, capabilities: new Set(CAPABILITIES) }]);
  expect(admin.has("groups.delete", "not-a-uid")).toBe(true);
});

test("built-in roles as published: owner holds everything, editor reads, pulls and writes repos, overlays and subscriptions only (no IAM write), viewer lists and pulls", () => {
  const [owner, editor, viewer] = BUILT_IN_ROLES;
  // Every capability but the service's own (`internal_only`): no customer role holds those.
  expect(owner?.capabilities).toEqual(CAPABILITIES.filter((c) => c !== "repo.internal.admin"));
  // Regression: the emulator's editor used to hold every IAM write but granting; the published
  // EditorCaps (proto/capabilities/roles.go) hold none.
  expect(editor?.capabilities.filter((c) => !c.endsWith(".list"))).toEqual([
    "subscriptions.create",
    "subscriptions.update",
    "subscriptions.delete",
    "repo.blobs.get",
    "repo.create",
    "repo.update",
    "repo.delete",
    "apk.blobs.get",
    "registry.overlays.edit",
  ]);
  expect(editor?.capabilities).not.toContain("groups.create");
  // ViewerCaps read and pull (repo.blobs.get, apk.blobs.get): nothing else.
  expect(viewer?.capabilities.filter((c) => !c.endsWith(".list"))).toEqual([
    "repo.blobs.get",
    "apk.blobs.get",
  ]);
  expect(viewer?.capabilities).toContain("advisories.list");
});
