// Deletes (AIP-135 and spec section 7): an empty body on success; a group with any child refuses
// with a RESOURCE_NOT_EMPTY violation per child; an identity takes its role bindings along.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ERROR_DOMAIN } from "../../../sdk/index.js";
import type { ErrorBody, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

interface Violation {
  type: string;
  subject: string;
  description: string;
}
const violations = (body: ErrorBody) =>
  detail<{ violations: Violation[] }>(body, "PreconditionFailure").violations;

describe("groups", () => {
  test("deleting an empty group answers 200 with an empty body, and the group is gone", async () => {
    const g = await emu.group("empty");
    const a = await emu.call("DELETE", `/iam/v2beta1/groups/${g.uid}`);
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    expect((await emu.call<ErrorBody>("GET", `/iam/v2beta1/groups/${g.uid}`)).body.code).toBe(5);
    expect((await emu.call<ErrorBody>("DELETE", `/iam/v2beta1/groups/${g.uid}`)).body.code).toBe(5);
  });

  test("a group with a repo refuses with code 9, FAILED_PRECONDITION and a RESOURCE_NOT_EMPTY violation naming the repo", async () => {
    const g = await emu.group("has-repo");
    const repo = await emu.ok<{ uid: string }>("POST", "/_emulator/repos", {
      body: { parentUid: g.uid, name: "app" },
    });
    const a = await emu.call<ErrorBody>("DELETE", `/iam/v2beta1/groups/${g.uid}`);
    expect(a.status).toBe(400);
    expect(a.body.code).toBe(9);
    expect(a.body.message.startsWith("Precondition failed:")).toBe(true);
    expect(detail(a.body, "ErrorInfo")).toMatchObject({
      reason: "FAILED_PRECONDITION",
      domain: ERROR_DOMAIN,
    });
    expect(violations(a.body)).toEqual([
      {
        type: "RESOURCE_NOT_EMPTY",
        subject: repo.uid,
        description: `group has child repo "app" (uid ${repo.uid})`,
      },
    ]);
    await emu.ok("DELETE", `/_emulator/repos/${repo.uid}`);
    expect((await emu.call("DELETE", `/iam/v2beta1/groups/${g.uid}`)).status).toBe(200);
  });

  test("every kind of child blocks the delete, one violation each", async () => {
    const g = await emu.group("full");
    const sub = await emu.group("sub", g.uid);
    const id = await emu.identity(g.uid, "member");
    const binding = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
    });
    const invite = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/groupInvites/${g.uid}`, {
      body: {
        roleUid: await emu.roleUid("viewer"),
        ttl: "86400s",
      },
    });
    const adv = await emu.ok<{ uid: string }>("POST", "/_emulator/advisories", {
      body: { parentUid: g.uid, advisoryId: "CGA-9999-9999-9999", aliases: ["CVE-9"] },
    });
    const a = await emu.call<ErrorBody>("DELETE", `/iam/v2beta1/groups/${g.uid}`);
    expect(a.body.code).toBe(9);
    const v = violations(a.body);
    expect(v.map((x) => x.subject)).toEqual([sub.uid, id.uid, binding.uid, invite.uid, adv.uid]);
    expect(v.every((x) => x.type === "RESOURCE_NOT_EMPTY")).toBe(true);
    expect(v[0]?.description).toBe(`group has child group "sub" (uid ${sub.uid})`);
    expect(v[2]?.description).toContain("role binding");
    // Advisories have no name: a violation names one by its CGA id.
    expect(v[4]?.description).toBe(`group has child advisory "CGA-9999-9999-9999" (uid ${adv.uid})`);
  });

  test("the violations list is capped at 20 and the message says how many more", async () => {
    const g = await emu.group("crowded");
    for (let i = 0; i < 25; i++) await emu.group(`c${i}`, g.uid);
    const a = await emu.call<ErrorBody>("DELETE", `/iam/v2beta1/groups/${g.uid}`);
    expect(violations(a.body)).toHaveLength(20);
    expect(a.body.message).toContain("25 direct child resources");
    expect(a.body.message).toContain("5 more");
  });

  test("the root organization cannot be deleted (code 7)", async () => {
    expect((await emu.call<ErrorBody>("DELETE", `/iam/v2beta1/groups/${emu.orgUid}`)).body.code).toBe(7);
  });
});

describe("identities and bindings", () => {
  test("deleting an identity removes its role bindings everywhere", async () => {
    const g = await emu.group("cascade");
    const sub = await emu.group("cascade-sub", g.uid);
    const id = await emu.identity(g.uid, "leaving");
    const keep = await emu.identity(g.uid, "staying");
    const viewer = await emu.roleUid("viewer");
    const b1 = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid: viewer },
    });
    const b2 = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${sub.uid}`, {
      body: { identityUid: id.uid, roleUid: viewer },
    });
    const kept = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: keep.uid, roleUid: viewer },
    });
    expect((await emu.call("DELETE", `/iam/v2beta1/identities/${id.uid}`)).status).toBe(200);
    for (const b of [b1, b2]) {
      expect((await emu.call<ErrorBody>("GET", `/iam/v2beta1/roleBindings/${b.uid}`)).body.code).toBe(5);
    }
    expect((await emu.call("GET", `/iam/v2beta1/roleBindings/${kept.uid}`)).status).toBe(200);
    const listed = await emu.ok<{ roleBindings: { uid: string }[] }>("GET", "/iam/v2beta1/roleBindings", {
      query: { "uidp.descendants_of": g.uid },
    });
    expect(listed.roleBindings.map((b) => b.uid)).toEqual([kept.uid]);
    // With the bindings gone, the sub-group is empty again.
    expect((await emu.call("DELETE", `/iam/v2beta1/groups/${sub.uid}`)).status).toBe(200);
  });

  test("a role binding is deleted on its own with an empty body", async () => {
    const g = await emu.group("rb-del");
    const id = await emu.identity(g.uid, "x");
    const b = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
    });
    const a = await emu.call("DELETE", `/iam/v2beta1/roleBindings/${b.uid}`);
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
    expect((await emu.call("GET", `/iam/v2beta1/identities/${id.uid}`)).status).toBe(200);
  });

  test("a custom role still bound refuses to be deleted with a RESOURCE_IN_USE violation", async () => {
    const role = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roles/${emu.orgUid}`, {
      body: { name: "in-use", capabilities: ["CAP_IAM_GROUPS_LIST"] },
    });
    const g = await emu.group("role-user");
    const id = await emu.identity(g.uid, "x");
    const b = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid: role.uid },
    });
    const a = await emu.call<ErrorBody>("DELETE", `/iam/v2beta1/roles/${role.uid}`);
    expect(a.body.code).toBe(9);
    expect(violations(a.body)[0]).toMatchObject({ type: "RESOURCE_IN_USE", subject: b.uid });
    await emu.ok("DELETE", `/iam/v2beta1/roleBindings/${b.uid}`);
    expect((await emu.call("DELETE", `/iam/v2beta1/roles/${role.uid}`)).status).toBe(200);
  });
});
