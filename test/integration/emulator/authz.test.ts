// Authorization: what viewer, editor and owner may do on the bound group and below, with tokens
// obtained through the real STS flow (identity with claimMatch, role binding, issuer token,
// exchange). Permission is decided before existence, and lists show only what the caller may read.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ErrorBody, Group, TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

let emu: TestEmulator;
let inside: Group;
let below: Group;
let outside: Group;
const tokens: Record<string, string> = {};
let seq = 0;

beforeAll(async () => {
  emu = await startTestEmulator();
  inside = await emu.group("inside");
  below = await emu.group("below", inside.uid);
  outside = await emu.group("outside");
  await emu.ok("POST", "/_emulator/repos", { body: { parentUid: below.uid, name: "repo-in" } });
  await emu.ok("POST", "/_emulator/repos", { body: { parentUid: outside.uid, name: "repo-out" } });
  for (const role of ["viewer", "editor", "owner"]) tokens[role] = await emu.tokenWithRole(inside.uid, role);
  // An identity that exists, exchanges fine, but has no binding.
  const id = await emu.identity(inside.uid, "nobody", "nobody-subject");
  tokens.none = (await emu.exchange(await emu.workloadToken("nobody-subject"), id.uid)).body.token;
});
afterAll(() => emu.close());

/** The code a call answers: 0 for success. */
async function codeOf(method: string, path: string, token: string, body?: unknown): Promise<number> {
  const a = await emu.call<ErrorBody>(method, path, { token, body });
  return a.status === 200 ? 0 : a.body.code;
}

type Op = (token: string, where: Group) => Promise<number>;

const ops: Record<string, Op> = {
  "get group": (t, g) => codeOf("GET", `/iam/v2beta1/groups/${g.uid}`, t),
  "create group": (t, g) => codeOf("POST", `/iam/v2beta1/groups/${g.uid}`, t, { name: `g${++seq}` }),
  "update group": async (t, g) => {
    const target = await emu.group(`u${++seq}`, g.uid);
    return codeOf("PATCH", `/iam/v2beta1/groups/${target.uid}`, t, { description: "x" });
  },
  "delete group": async (t, g) => {
    const target = await emu.group(`d${++seq}`, g.uid);
    return codeOf("DELETE", `/iam/v2beta1/groups/${target.uid}`, t);
  },
  "create identity": (t, g) =>
    codeOf("POST", `/iam/v2beta1/identities/${g.uid}`, t, {
      name: `i${++seq}`,
      claimMatch: { issuer: "https://i", subject: "s" },
    }),
  "update identity": async (t, g) => {
    const id = await emu.identity(g.uid, `ui${++seq}`);
    return codeOf("PATCH", `/iam/v2beta1/identities/${id.uid}`, t, { description: "x" });
  },
  "delete identity": async (t, g) => {
    const id = await emu.identity(g.uid, `di${++seq}`);
    return codeOf("DELETE", `/iam/v2beta1/identities/${id.uid}`, t);
  },
  "create role binding": async (t, g) => {
    const id = await emu.identity(g.uid, `bi${++seq}`);
    return codeOf("POST", `/iam/v2beta1/roleBindings/${g.uid}`, t, {
      identityUid: id.uid,
      roleUid: await emu.roleUid("viewer"),
    });
  },
  "delete role binding": async (t, g) => {
    const id = await emu.identity(g.uid, `db${++seq}`);
    const b = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
    });
    return codeOf("DELETE", `/iam/v2beta1/roleBindings/${b.uid}`, t);
  },
  "create group invite": async (t, g) =>
    codeOf("POST", `/iam/v2beta1/groupInvites/${g.uid}`, t, {
      roleUid: await emu.roleUid("viewer"),
      ttl: "86400s",
    }),
  "list groups under": async (t, g) => {
    const a = await emu.call<{ groups: Group[] } & ErrorBody>("GET", "/iam/v2beta1/groups", {
      token: t,
      query: { "uidp.descendants_of": g.uid },
    });
    // A list never refuses; it shows what may be read. Empty counts as "not allowed".
    return a.status !== 200 ? a.body.code : a.body.groups.length > 0 ? 0 : 7;
  },
};

// Expected outcome per role for the bound group (and its descendants): "ok" or the code.
const expected: Record<string, Record<string, 0 | 7>> = {
  viewer: { "get group": 0, "list groups under": 0 },
  // The published editor (`EditorCaps`, proto/capabilities/roles.go) reads and writes repos only:
  // no IAM write. Regression: the emulator's editor used to create groups, identities and invites.
  editor: { "get group": 0, "list groups under": 0 },
  owner: Object.fromEntries(Object.keys(ops).map((k) => [k, 0])),
  none: {},
};

describe.each(["viewer", "editor", "owner", "none"])("%s bound on a group", (role) => {
  test.each(Object.keys(ops))(`%s inside the bound group and below`, async (op) => {
    const want = expected[role]?.[op] ?? 7;
    expect(await ops[op]?.(tokens[role] as string, inside)).toBe(want);
    expect(await ops[op]?.(tokens[role] as string, below)).toBe(want);
  });

  test.each(Object.keys(ops))(`%s outside the bound group is denied`, async (op) => {
    expect(await ops[op]?.(tokens[role] as string, outside)).toBe(7);
  });
});

describe("rules across roles", () => {
  test("any authenticated caller lists and reads the built-in roles; only owners define custom roles, in their group", async () => {
    for (const role of ["viewer", "editor", "owner", "none"]) {
      const t = tokens[role] as string;
      const page = await emu.call<{ roles: { uid: string }[] }>("GET", "/iam/v2beta1/roles", { token: t });
      expect(page.status).toBe(200);
      expect(page.body.roles.length).toBeGreaterThanOrEqual(3);
      expect(await codeOf("GET", `/iam/v2beta1/roles/${page.body.roles[0]?.uid}`, t)).toBe(0);
      const want = role === "owner" ? 0 : 7;
      const body = { name: `custom-${role}`, capabilities: ["CAP_IAM_GROUPS_LIST"] };
      expect(await codeOf("POST", `/iam/v2beta1/roles/${inside.uid}`, t, body)).toBe(want);
      expect(await codeOf("POST", `/iam/v2beta1/roles/${outside.uid}`, t, body)).toBe(7);
    }
    expect(
      await codeOf("POST", `/iam/v2beta1/roles/${emu.orgUid}`, emu.adminToken, {
        name: "custom-admin",
        capabilities: ["CAP_IAM_GROUPS_LIST"],
      }),
    ).toBe(0);
  });

  test("permission is checked before existence: no existence leak outside the caller's scope", async () => {
    const ghostOut = `${outside.uid}/0123456789abcdef`;
    const ghostIn = `${inside.uid}/0123456789abcdef`;
    const t = tokens.viewer as string;
    expect(await codeOf("GET", `/iam/v2beta1/groups/${ghostOut}`, t)).toBe(7);
    expect(await codeOf("GET", `/iam/v2beta1/groups/${outside.uid}`, t)).toBe(7);
    expect(await codeOf("GET", `/iam/v2beta1/groups/${ghostIn}`, t)).toBe(5);
    expect(await codeOf("GET", "/iam/v2beta1/groups/not-a-uid", t)).toBe(7);
    const e = tokens.owner as string;
    expect(await codeOf("PATCH", `/iam/v2beta1/groups/${ghostOut}`, e, { description: "x" })).toBe(7);
    expect(await codeOf("PATCH", `/iam/v2beta1/groups/${ghostIn}`, e, { description: "x" })).toBe(5);
    expect(await codeOf("POST", `/iam/v2beta1/groups/${ghostOut}`, e, { name: "x" })).toBe(7);
    expect(await codeOf("POST", `/iam/v2beta1/groups/${ghostIn}`, e, { name: "x" })).toBe(5);
  });

  test("lists show only what the caller may read: the bound group's subtree, with matching totalCount", async () => {
    const t = tokens.viewer as string;
    const groups = await emu.call<{ groups: Group[]; totalCount: string }>("GET", "/iam/v2beta1/groups", {
      token: t,
    });
    expect(groups.body.groups.every((g) => g.uid === inside.uid || g.uid.startsWith(`${inside.uid}/`))).toBe(
      true,
    );
    expect(groups.body.groups.some((g) => g.uid === below.uid)).toBe(true);
    expect(groups.body.totalCount).toBe(String(groups.body.groups.length));
    const repos = await emu.call<{ repos: { name: string }[] }>("GET", "/registry/v2beta1/repos", {
      token: t,
    });
    expect(repos.body.repos.map((r) => r.name)).toEqual(["repo-in"]);
    const v1 = await emu.call<{ items: { name: string }[] }>("GET", "/registry/v1/repos", { token: t });
    expect(v1.body.items.map((r) => r.name)).toEqual(["repo-in"]);
    const none = await emu.call<{ groups: Group[]; totalCount: string }>("GET", "/iam/v2beta1/groups", {
      token: tokens.none as string,
    });
    expect(none.body).toMatchObject({ groups: [], totalCount: "0" });
  });

  test("a binding on a parent group reaches down but not up", async () => {
    const t = tokens.viewer as string;
    expect(await codeOf("GET", `/iam/v2beta1/groups/${below.uid}`, t)).toBe(0);
    expect(await codeOf("GET", `/iam/v2beta1/groups/${emu.orgUid}`, t)).toBe(7);
  });

  test("the control API needs the admin token (16 without a token, 7 with an identity's)", async () => {
    expect((await emu.call<ErrorBody>("GET", "/_emulator/stats", { token: "" })).body.code).toBe(16);
    expect(
      (await emu.call<ErrorBody>("GET", "/_emulator/stats", { token: tokens.owner as string })).body.code,
    ).toBe(7);
  });

  test("removing a binding takes the permission away at once", async () => {
    const id = await emu.identity(inside.uid, "temp", "temp-subject");
    const b = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${inside.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
    });
    const t = (await emu.exchange(await emu.workloadToken("temp-subject"), id.uid)).body.token;
    expect(await codeOf("GET", `/iam/v2beta1/groups/${inside.uid}`, t)).toBe(0);
    await emu.ok("DELETE", `/iam/v2beta1/roleBindings/${b.uid}`);
    expect(await codeOf("GET", `/iam/v2beta1/groups/${inside.uid}`, t)).toBe(7);
    await emu.ok("DELETE", `/iam/v2beta1/identities/${id.uid}`);
    expect(await codeOf("GET", `/iam/v2beta1/groups/${inside.uid}`, t)).toBe(16);
  });
});
