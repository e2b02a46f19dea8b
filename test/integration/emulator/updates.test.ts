// Updates (AIP-134 and spec section 4): without a mask only the fields present change; with
// updateMask only the listed ones, clearing those absent from the body; `*` replaces; unknown and
// output-only paths are refused; new values follow the create rules; updateTime always advances.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GROUP_NAME_PATTERN_SOURCE } from "../../../sdk/index.js";
import type { ErrorBody, Group, Identity, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

let seq = 0;
const freshGroup = () => emu.group(`patch-${++seq}`, undefined, "original");
const patch = <T = Group>(path: string, body: unknown, updateMask?: string) =>
  emu.call<T & ErrorBody>("PATCH", path, { body, query: { updateMask } });
const violations = (body: ErrorBody) =>
  detail<{ fieldViolations: { field: string; description: string }[] }>(body, "BadRequest").fieldViolations;

describe("groups", () => {
  test("without a mask only the fields present in the body change", async () => {
    const g = await freshGroup();
    const a = await patch(`/iam/v2beta1/groups/${g.uid}`, { description: "changed" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      uid: g.uid,
      name: g.name,
      description: "changed",
      verified: false,
      resourceLimits: {},
    });
    expect(await emu.ok("GET", `/iam/v2beta1/groups/${g.uid}`)).toEqual(a.body);
  });

  test("without a mask, output-only body fields are ignored (a GET-modify-PATCH round trip works)", async () => {
    const g = await freshGroup();
    const a = await patch(`/iam/v2beta1/groups/${g.uid}`, {
      ...g,
      name: `${g.name}-renamed`,
      uid: "ignored",
      createTime: "2000-01-01T00:00:00.000Z",
      verified: true,
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      uid: g.uid,
      name: `${g.name}-renamed`,
      createTime: g.createTime,
      verified: false,
    });
  });

  test("regression (unknown PATCH keys were ignored; the gateway refuses them): a body key the message lacks is code 3 naming it, and nothing changes", async () => {
    const g = await freshGroup();
    const a = await patch<ErrorBody>(`/iam/v2beta1/groups/${g.uid}`, { name: `${g.name}-x`, color: "blue" });
    expect(a.status).toBe(400);
    expect(a.body.message).toMatch(/color: could not find field "color"/);
    expect((await emu.ok<{ name: string }>("GET", `/iam/v2beta1/groups/${g.uid}`)).name).toBe(g.name);
  });

  test("regression (issue 34: a viewer got 7 and an unknown uid 5): an unknown PATCH key is code 3 before any permission check or lookup, as the gateway decodes first", async () => {
    const g = await freshGroup();
    const viewer = await emu.tokenWithRole(g.uid, "viewer");
    const denied = await emu.call<ErrorBody>("PATCH", `/iam/v2beta1/groups/${g.uid}`, {
      token: viewer,
      body: { color: "blue" },
    });
    expect(denied.body.code).toBe(3);
    expect(violations(denied.body)).toEqual([
      { field: "color", description: 'could not find field "color" in group resources' },
    ]);
    const ghost = await patch<ErrorBody>(`/iam/v2beta1/identities/${g.uid}/0123456789abcdef`, { colour: 1 });
    expect(ghost.body.code).toBe(3);
    expect(violations(ghost.body).map((v) => v.field)).toEqual(["colour"]);
    // Without the unknown key, the same requests are refused as before: 7 and 5.
    const known = await emu.call<ErrorBody>("PATCH", `/iam/v2beta1/groups/${g.uid}`, {
      token: viewer,
      body: { description: "x" },
    });
    expect(known.body.code).toBe(7);
    expect(
      (await patch<ErrorBody>(`/iam/v2beta1/identities/${g.uid}/0123456789abcdef`, { name: "x" })).body.code,
    ).toBe(5);
  });

  test("a create drops unknown body keys (protojson DiscardUnknown), so they change no answer: the permission check decides", async () => {
    const g = await freshGroup();
    const viewer = await emu.tokenWithRole(g.uid, "viewer");
    const denied = await emu.call<ErrorBody>("POST", `/iam/v2beta1/groups/${g.uid}`, {
      token: viewer,
      body: { name: "child", color: "blue" },
    });
    expect(denied.body.code).toBe(7);
    const made = await emu.ok("POST", `/iam/v2beta1/groups/${g.uid}`, {
      body: { name: "child", color: "blue" },
    });
    expect(made).not.toHaveProperty("color");
    // A body that is not an object is not decoded at all: 3 for everyone.
    const notObject = await emu.call<ErrorBody>("POST", `/iam/v2beta1/groups/${g.uid}`, {
      token: viewer,
      body: ["child"],
    });
    expect(notObject.body.code).toBe(3);
  });

  test("with updateMask only the listed fields change and other body fields are ignored", async () => {
    const g = await freshGroup();
    const a = await patch(
      `/iam/v2beta1/groups/${g.uid}`,
      { name: "ignored-name", description: "masked" },
      "description",
    );
    expect(a.body).toMatchObject({ name: g.name, description: "masked" });
  });

  test("a listed field absent from the body is cleared", async () => {
    const g = await freshGroup();
    const a = await patch(`/iam/v2beta1/groups/${g.uid}`, {}, "description");
    expect(a.status).toBe(200);
    expect(a.body.description).toBe(""); // cleared: "" on the wire (EmitUnpopulated)
    expect(a.body.name).toBe(g.name);
  });

  test("null in the body clears an optional field when no mask is given", async () => {
    const g = await freshGroup();
    const a = await patch(`/iam/v2beta1/groups/${g.uid}`, { description: null });
    expect(a.body.description).toBe(""); // cleared: "" on the wire (EmitUnpopulated)
  });

  test("the required name cannot be cleared (code 3 naming it)", async () => {
    const g = await freshGroup();
    const a = await patch(`/iam/v2beta1/groups/${g.uid}`, {}, "name");
    expect(a.body.code).toBe(3);
    expect(violations(a.body)[0]).toMatchObject({ field: "name" });
    const viaNull = await patch(`/iam/v2beta1/groups/${g.uid}`, { name: null });
    expect(viaNull.body.code).toBe(3);
  });

  test("updateMask=* replaces every mutable field, clearing what the body lacks", async () => {
    const g = await freshGroup();
    const a = await patch(`/iam/v2beta1/groups/${g.uid}`, { name: `${g.name}-star` }, "*");
    expect(a.body).toMatchObject({ name: `${g.name}-star` });
    expect(a.body.description).toBe(""); // cleared: "" on the wire (EmitUnpopulated)
    const noName = await patch(`/iam/v2beta1/groups/${g.uid}`, { description: "x" }, "*");
    expect(noName.body.code).toBe(3);
  });

  test("mask paths may be lists and snake_case; unknown and output-only paths are code 3 naming the path", async () => {
    const g = await freshGroup();
    const both = await patch(
      `/iam/v2beta1/groups/${g.uid}`,
      { name: `${g.name}-b`, description: "d" },
      "name, description",
    );
    expect(both.body).toMatchObject({ name: `${g.name}-b`, description: "d" });
    for (const path of [
      "uid",
      "createTime",
      "create_time",
      "updateTime",
      "verified",
      "resourceLimits",
      "colour",
    ]) {
      const a = await patch(`/iam/v2beta1/groups/${g.uid}`, { description: "x" }, path);
      expect(a.status).toBe(400);
      expect(a.body.code).toBe(3);
      expect(violations(a.body)[0]?.field).toBe("updateMask");
      expect(violations(a.body)[0]?.description).toContain(path);
    }
  });

  test("a new name is checked against the pattern and against siblings", async () => {
    const g = await freshGroup();
    const bad = await patch(`/iam/v2beta1/groups/${g.uid}`, { name: "Bad Name" });
    expect(bad.body.code).toBe(3);
    expect(violations(bad.body)[0]?.description).toContain(GROUP_NAME_PATTERN_SOURCE);
    const other = await freshGroup();
    const clash = await patch(`/iam/v2beta1/groups/${g.uid}`, { name: other.name });
    expect(clash.body.code).toBe(6);
    const same = await patch(`/iam/v2beta1/groups/${g.uid}`, { name: g.name });
    expect(same.status).toBe(200);
  });

  test("a wrong type is code 3 naming the field", async () => {
    const g = await freshGroup();
    const a = await patch(`/iam/v2beta1/groups/${g.uid}`, { description: 42 });
    expect(a.body.code).toBe(3);
    expect(violations(a.body)[0]?.field).toBe("description");
  });

  test("updateTime strictly increases on every update, even within one millisecond; createTime stays", async () => {
    const g = await freshGroup();
    let last = g.updateTime;
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => patch(`/iam/v2beta1/groups/${g.uid}`, { description: `v${i}` })),
    );
    const times = results.map((r) => r.body.updateTime).sort();
    for (const t of times) {
      expect(Date.parse(t)).toBeGreaterThan(Date.parse(last));
      last = t;
    }
    expect(new Set(times).size).toBe(5);
    expect(results.every((r) => r.body.createTime === g.createTime)).toBe(true);
  });
});

describe("identities", () => {
  // The gateway writes the empty claim maps as `{}` (protojson EmitUnpopulated; identities.proto:258,261).
  const EMPTY_MAPS = { claims: {}, claimPatterns: {} };
  const freshIdentity = async () => emu.identity(emu.orgUid, `idp-${++seq}`, "subject-a");

  test("a nested mask path changes only that leaf", async () => {
    const id = await freshIdentity();
    const a = await patch<Identity>(
      `/iam/v2beta1/identities/${id.uid}`,
      { claimMatch: { subject: "subject-b", issuer: "ignored" } },
      "claimMatch.subject",
    );
    expect(a.body.claimMatch).toEqual({ issuer: emu.issuerUrl, subject: "subject-b", ...EMPTY_MAPS });
    const snake = await patch<Identity>(
      `/iam/v2beta1/identities/${id.uid}`,
      { claimMatch: { subject: "subject-c" } },
      "claim_match.subject",
    );
    expect(snake.body.claimMatch.subject).toBe("subject-c");
  });

  test("without a mask a partial claimMatch changes only the leaves present", async () => {
    const id = await freshIdentity();
    const a = await patch<Identity>(`/iam/v2beta1/identities/${id.uid}`, {
      claimMatch: { subject: "only-subject" },
    });
    expect(a.body.claimMatch).toEqual({ issuer: emu.issuerUrl, subject: "only-subject", ...EMPTY_MAPS });
  });

  test("masking the whole claimMatch replaces it and must keep it complete", async () => {
    const id = await freshIdentity();
    const a = await patch<Identity>(
      `/iam/v2beta1/identities/${id.uid}`,
      { claimMatch: { subject: "x" } },
      "claimMatch",
    );
    expect(a.body.code).toBe(3);
    expect(violations(a.body)[0]?.field).toBe("claimMatch.issuer");
    const cleared = await patch<Identity>(`/iam/v2beta1/identities/${id.uid}`, {}, "claimMatch.issuer");
    expect(cleared.body.code).toBe(3);
  });

  test("lastSeenTime is output only", async () => {
    const id = await freshIdentity();
    const a = await patch<Identity>(`/iam/v2beta1/identities/${id.uid}`, {}, "lastSeenTime");
    expect(a.body.code).toBe(3);
    expect(violations(a.body)[0]?.description).toContain("lastSeenTime");
  });
});

describe("roles and role bindings", () => {
  test("a custom role's name and description can be updated", async () => {
    const role = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roles/${emu.orgUid}`, {
      body: { name: `r-${++seq}`, description: "a", capabilities: ["CAP_IAM_GROUPS_LIST"] },
    });
    const a = await patch<{ description?: string }>(`/iam/v2beta1/roles/${role.uid}`, {}, "description");
    expect(a.status).toBe(200);
    expect(a.body.description).toBe(""); // cleared: "" on the wire (EmitUnpopulated)
  });

  test("a role binding's role and identity can be changed; its group cannot", async () => {
    const g = await freshGroup();
    const id = await emu.identity(g.uid, "bound");
    const other = await emu.identity(g.uid, "other");
    const b = await emu.ok<{ uid: string; createTime: string }>(
      "POST",
      `/iam/v2beta1/roleBindings/${g.uid}`,
      {
        body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
      },
    );
    const editor = await emu.roleUid("editor");
    const a = await patch<{ role: { name: string }; createTime: string }>(
      `/iam/v2beta1/roleBindings/${b.uid}`,
      {
        roleUid: editor,
      },
    );
    expect(a.body.role.name).toBe("editor");
    expect(a.body.createTime).toBe(b.createTime);
    type Bound = { identity: { uid: string; name: string }; identityUid: string; role: { name: string } };
    const moved = await patch<Bound>(
      `/iam/v2beta1/roleBindings/${b.uid}`,
      { identityUid: other.uid },
      "identityUid",
    );
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ identityUid: other.uid, identity: { uid: other.uid, name: "other" } });
    expect(moved.body.role.name).toBe("editor");
    // The binding is now the other identity's: listing the first identity's bindings finds none.
    const all = await emu.ok<{ roleBindings: Bound[] }>("GET", "/iam/v2beta1/roleBindings", {
      query: { "uidp.children_of": g.uid },
    });
    expect(all.roleBindings.map((x) => x.identity.uid)).toEqual([other.uid]);
    const unknownIdentity = await patch(
      `/iam/v2beta1/roleBindings/${b.uid}`,
      { identityUid: `${g.uid}/0123456789abcdef` },
      "identityUid",
    );
    expect(unknownIdentity.body.code).toBe(3);
    expect(JSON.stringify(unknownIdentity.body)).toMatch(/identityUid/);
    const cleared = await patch(`/iam/v2beta1/roleBindings/${b.uid}`, {}, "identityUid");
    expect(cleared.body.code).toBe(3);
    const regrouped = await patch(`/iam/v2beta1/roleBindings/${b.uid}`, {}, "group");
    expect(regrouped.body.code).toBe(3);
    const unknownRole = await patch(`/iam/v2beta1/roleBindings/${b.uid}`, { roleUid: "abc" });
    expect(unknownRole.body.code).toBe(3);
  });

  test("regression (a PATCH without a mask dropped identityUid and answered 200: data lost): a present identityUid is applied", async () => {
    const g = await freshGroup();
    const id = await emu.identity(g.uid, "first");
    const other = await emu.identity(g.uid, "second");
    const b = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
    });
    const a = await patch<{ identity: { uid: string }; identityUid: string }>(
      `/iam/v2beta1/roleBindings/${b.uid}`,
      { identityUid: other.uid },
    );
    expect(a.status).toBe(200);
    expect(a.body.identity.uid).toBe(other.uid);
    const read = await emu.ok<{ identityUid: string }>("GET", `/iam/v2beta1/roleBindings/${b.uid}`);
    expect(read.identityUid).toBe(other.uid);
  });
});
