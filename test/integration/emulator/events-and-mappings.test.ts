// Issue 45: subscriptions (events/v2beta1 and v2) and external group role mappings (iam), over HTTP,
// with the published rules each test names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
let team: string;
let viewerRole: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  team = (await emu.group("events-team")).uid;
  viewerRole = await emu.roleUid("viewer");
});
afterAll(() => emu.close());

type Json = Record<string, unknown> & { uid: string };
let seq = 0;
const idp = () =>
  emu.ok<Json>("POST", `/iam/v2/identityProviders/${team}`, {
    body: {
      name: `sso-${++seq}`,
      defaultRole: viewerRole,
      oidc: { issuer: "https://idp.example.com", clientId: "client", clientSecret: "secret" },
    },
  });

describe("subscriptions", () => {
  it("create, get, list and delete at v2 and v2beta1; the answer is the published message (uid and sink only); no update", async () => {
    const made = await emu.ok<Json>("POST", `/events/v2/subscriptions/${team}`, {
      body: { sink: "https://hooks.example.com/irv" },
    });
    expect(made).toEqual({
      uid: expect.stringMatching(new RegExp(`^${team}/[0-9a-f]{16}$`)),
      sink: "https://hooks.example.com/irv",
    });
    expect(await emu.ok("GET", `/events/v2beta1/subscriptions/${made.uid}`)).toEqual(made);
    const listed = await emu.ok<{ subscriptions: Json[] }>("GET", "/events/v2/subscriptions", {
      query: { "uidp.children_of": team },
    });
    expect(listed.subscriptions).toEqual([made]);
    expect(
      (await emu.call("PATCH", `/events/v2/subscriptions/${made.uid}`, { body: { sink: "https://x" } }))
        .status,
    ).toBe(405);
    expect((await emu.call("DELETE", `/events/v2beta1/subscriptions/${made.uid}`)).status).toBe(200);
    expect((await emu.call("GET", `/events/v2/subscriptions/${made.uid}`)).status).toBe(404);
  });

  it("the sink is https, or http on a loopback host only (127.0.0.0/8, localhost, [::1]) so a local receiver can be tested", async () => {
    for (const sink of [
      "http://127.0.0.1:9999/hook",
      "http://localhost/hook",
      "http://[::1]:8080/",
      "http://127.1.2.3/",
    ]) {
      expect(
        (await emu.call("POST", `/events/v2/subscriptions/${team}`, { body: { sink } })).status,
        sink,
      ).toBe(200);
    }
    for (const sink of ["http://hooks.example.com/", "ftp://127.0.0.1/", "not a url", "http://10.0.0.1/"]) {
      const a = await emu.call<ErrorBody>("POST", `/events/v2/subscriptions/${team}`, { body: { sink } });
      expect(a.status, sink).toBe(400);
      expect(
        detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations[0]?.field,
      ).toBe("sink");
    }
  });

  it("a group with a subscription is not deleted (RESOURCE_NOT_EMPTY); an editor subscribes, a viewer does not", async () => {
    const g = await emu.group("subscribed");
    const editor = await emu.tokenWithRole(g.uid, "editor");
    const viewer = await emu.tokenWithRole(g.uid, "viewer");
    await emu.ok("POST", `/events/v2/subscriptions/${g.uid}`, {
      token: editor,
      body: { sink: "https://a.example.com" },
    });
    const denied = await emu.call<ErrorBody>("POST", `/events/v2/subscriptions/${g.uid}`, {
      token: viewer,
      body: { sink: "https://b.example.com" },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain("subscriptions.create");
    const a = await emu.call<ErrorBody>("DELETE", `/iam/v2/groups/${g.uid}`);
    expect(a.body.code).toBe(9);
    expect(a.body.message).toContain("not empty");
  });
});

describe("external group role mappings", () => {
  it("created under an identity provider (its uid a child of the provider's), scope the org root only, immutable, read at v2 and v2beta1", async () => {
    const provider = await idp();
    const made = await emu.ok<Json>("POST", `/iam/v2/externalGroupRoleMappings/${provider.uid}`, {
      body: { externalGroupId: "engineering", roleUid: viewerRole, scope: emu.orgUid },
    });
    expect(made).toEqual({
      uid: expect.stringMatching(new RegExp(`^${provider.uid}/[0-9a-f]{16}$`)),
      identityProviderUid: provider.uid,
      externalGroupId: "engineering",
      roleUid: viewerRole,
      scope: emu.orgUid,
      createTime: expect.any(String),
    });
    expect(await emu.ok("GET", `/iam/v2beta1/externalGroupRoleMappings/${made.uid}`)).toEqual(made);
    const listed = await emu.ok<{ externalGroupRoleMappings: Json[] }>(
      "GET",
      "/iam/v2/externalGroupRoleMappings",
      {
        query: { identity_provider_uid: provider.uid },
      },
    );
    expect(listed.externalGroupRoleMappings).toEqual([made]);
    const notRoot = await emu.call<ErrorBody>("POST", `/iam/v2/externalGroupRoleMappings/${provider.uid}`, {
      body: { externalGroupId: "eng", roleUid: viewerRole, scope: team },
    });
    expect(notRoot.status).toBe(400);
    expect(notRoot.body.message).toContain("scope");
    const twice = await emu.call<ErrorBody>("POST", `/iam/v2/externalGroupRoleMappings/${provider.uid}`, {
      body: { externalGroupId: "engineering", roleUid: viewerRole, scope: emu.orgUid },
    });
    expect(twice.status).toBe(409);
    expect(
      (await emu.call("PATCH", `/iam/v2/externalGroupRoleMappings/${made.uid}`, { body: {} })).status,
    ).toBe(405);
  });

  it("creating needs identity_providers.create and role_bindings.create, and the mapped role's capabilities (no escalation)", async () => {
    const provider = await idp();
    // An identity-provider manager without role bindings is refused, naming the capability.
    const role = await emu.ok<Json>("POST", `/iam/v2/roles/${emu.orgUid}`, {
      body: {
        name: "idp-admin",
        capabilities: [
          "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
          "CAP_IAM_IDENTITY_PROVIDERS_LIST",
          "CAP_IAM_GROUPS_LIST",
        ],
      },
    });
    const idpAdmin = await emu.tokenWithRole(emu.orgUid, "idp-admin");
    const a = await emu.call<ErrorBody>("POST", `/iam/v2/externalGroupRoleMappings/${provider.uid}`, {
      token: idpAdmin,
      body: { externalGroupId: "eng", roleUid: viewerRole, scope: emu.orgUid },
    });
    expect(a.status).toBe(403);
    expect(a.body.message).toContain("role_bindings.create");
    // limited_owner creates role bindings but not identity providers: refused too.
    const limited = await emu.tokenWithRole(emu.orgUid, "limited_owner");
    const b = await emu.call<ErrorBody>("POST", `/iam/v2/externalGroupRoleMappings/${provider.uid}`, {
      token: limited,
      body: { externalGroupId: "eng", roleUid: viewerRole, scope: emu.orgUid },
    });
    expect(b.status).toBe(403);
    // Both capabilities but not the owner role's: mapping a group to owner is an escalation.
    const both = await emu.ok<Json>("POST", `/iam/v2/roles/${emu.orgUid}`, {
      body: {
        name: "mapper",
        capabilities: [
          "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
          "CAP_IAM_ROLE_BINDINGS_CREATE",
          "CAP_IAM_GROUPS_LIST",
          "CAP_IAM_ROLES_LIST",
          "CAP_IAM_IDENTITY_PROVIDERS_LIST",
        ],
      },
    });
    const mapper = await emu.tokenWithRole(emu.orgUid, "mapper");
    const c = await emu.call<ErrorBody>("POST", `/iam/v2/externalGroupRoleMappings/${provider.uid}`, {
      token: mapper,
      body: { externalGroupId: "admins", roleUid: await emu.roleUid("owner"), scope: emu.orgUid },
    });
    expect(c.status).toBe(403);
    expect(c.body.message).toContain("escalation");
    const ok = await emu.call("POST", `/iam/v2/externalGroupRoleMappings/${provider.uid}`, {
      token: mapper,
      body: { externalGroupId: "mappers", roleUid: both.uid, scope: emu.orgUid },
    });
    expect(ok.status).toBe(200);
    expect(role.uid).toBeTruthy();
  });

  it("an identity provider with mappings is not deleted (code 9); :batchDelete removes them (skipping gone ones, refusing foreign ones); a mapped role is not deleted", async () => {
    const provider = await idp();
    const other = await idp();
    const custom = await emu.ok<Json>("POST", `/iam/v2/roles/${emu.orgUid}`, {
      body: { name: `mapped-${++seq}`, capabilities: ["CAP_IAM_GROUPS_LIST"] },
    });
    const mk = (parent: string, externalGroupId: string, roleUid = viewerRole) =>
      emu.ok<Json>("POST", `/iam/v2/externalGroupRoleMappings/${parent}`, {
        body: { externalGroupId, roleUid, scope: emu.orgUid },
      });
    const m1 = await mk(provider.uid, "a");
    const m2 = await mk(provider.uid, "b", custom.uid);
    const foreign = await mk(other.uid, "c");
    const blocked = await emu.call<ErrorBody>("DELETE", `/iam/v2/identityProviders/${provider.uid}`);
    expect(blocked.body.code).toBe(9);
    expect(
      detail<{ violations: { type: string }[] }>(blocked.body, "PreconditionFailure").violations[0]?.type,
    ).toBe("RESOURCE_NOT_EMPTY");
    const roleDelete = await emu.call<ErrorBody>("DELETE", `/iam/v2/roles/${custom.uid}`);
    expect(roleDelete.body.code).toBe(9);
    const refused = await emu.call<ErrorBody>("POST", "/iam/v2/externalGroupRoleMappings:batchDelete", {
      body: { parent: provider.uid, names: [m1.uid, foreign.uid] },
    });
    expect(refused.status).toBe(400);
    expect((await emu.call("GET", `/iam/v2/externalGroupRoleMappings/${m1.uid}`)).status).toBe(200);
    const gone = `${provider.uid}/0123456789abcdef`;
    const done = await emu.ok<{ parent: string; externalGroupRoleMappings: Json[] }>(
      "POST",
      "/iam/v2beta1/externalGroupRoleMappings:batchDelete",
      { body: { parent: provider.uid, names: [m1.uid, m2.uid, gone] } },
    );
    expect(done.parent).toBe(provider.uid);
    expect(done.externalGroupRoleMappings.map((m) => m.uid)).toEqual([m1.uid, m2.uid]);
    expect((await emu.call("DELETE", `/iam/v2/roles/${custom.uid}`)).status).toBe(200);
    expect((await emu.call("DELETE", `/iam/v2/identityProviders/${provider.uid}`)).status).toBe(200);
  });
});
