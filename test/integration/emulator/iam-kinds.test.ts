// The typed IAM kinds over HTTP: identity providers (write-only clientSecret), account
// associations, group invites (a once-only code, never updated), custom roles and identity
// variants — create, get, list, update with and without masks (clearing included), delete, and
// each validation rule answered with code 3 naming the field.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  AccountAssociationsSchema,
  GroupInviteSchema,
  IdentityProviderSchema,
  IdentitySchema,
  RoleSchema,
  toWireCapability,
} from "../../../sdk/index.js";
import type { ErrorBody, Group, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
let g: Group;
let viewer: string;
let seq = 0;
beforeAll(async () => {
  emu = await startTestEmulator();
  g = await emu.group("kinds");
  viewer = await emu.roleUid("viewer");
});
afterAll(() => emu.close());

type Json = Record<string, unknown>;
const iam = (collection: string, uid: string) => `/iam/v2beta1/${collection}/${uid}`;
const fields = (body: ErrorBody) =>
  detail<{ fieldViolations: { field: string; description: string }[] }>(
    body,
    "BadRequest",
  ).fieldViolations.map((v) => `${v.field}: ${v.description}`);
const refused = async (method: string, path: string, body: unknown, query?: Record<string, string>) => {
  const a = await emu.call<ErrorBody>(method, path, { body, ...(query ? { query } : {}) });
  expect(a.body.code, a.text).toBe(3);
  return fields(a.body);
};
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe("identity providers", () => {
  const oidc = { issuer: "https://accounts.example", clientId: "client", clientSecret: "s3cr3t-value" };

  test("CRUD; clientSecret is accepted on create and update but never returned by any read", async () => {
    const made = await emu.ok<Json>("POST", iam("identityProviders", g.uid), {
      body: { name: "corp", defaultRole: viewer, oidc: { ...oidc, additionalScopes: ["email"] } },
    });
    const idp = IdentityProviderSchema.parse(made);
    expect(idp.oidc).toEqual({
      issuer: oidc.issuer,
      clientId: "client",
      additionalScopes: ["email"],
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
      pkceEnabled: false,
    });
    const rotated = await emu.ok<Json>("PATCH", iam("identityProviders", idp.uid), {
      body: { oidc: { clientSecret: "rotated-value" } },
    });
    expect(rotated).toMatchObject({ oidc: { issuer: oidc.issuer, clientId: "client" } });
    const got = await emu.ok<Json>("GET", iam("identityProviders", idp.uid));
    const listed = await emu.ok<Json>("GET", "/iam/v2beta1/identityProviders", {
      query: { "uidp.children_of": g.uid },
    });
    const stats = await emu.ok<Json>("GET", "/_emulator/stats");
    for (const answer of [made, rotated, got, listed, stats]) {
      expect(JSON.stringify(answer)).not.toMatch(/s3cr3t-value|rotated-value|clientSecret/);
    }
    expect((await emu.call("DELETE", iam("identityProviders", idp.uid))).status).toBe(200);
    expect((await emu.call<ErrorBody>("GET", iam("identityProviders", idp.uid))).body.code).toBe(5);
  });

  test("masks change and clear fields; the oidc block cannot be cleared, nor the secret of a client without PKCE", async () => {
    const idp = await emu.ok<{ uid: string }>("POST", iam("identityProviders", g.uid), {
      body: { name: `m${++seq}`, description: "d", defaultRole: viewer, oidc },
    });
    const cleared = await emu.ok<Json>("PATCH", iam("identityProviders", idp.uid), {
      body: { oidc: { additionalScopes: ["groups"] } },
      query: { updateMask: "description,oidc.additional_scopes" },
    });
    expect(cleared.description).toBe(""); // cleared: "" on the wire (EmitUnpopulated)
    expect(cleared.defaultRole).toBe(viewer);
    expect(cleared.oidc).toEqual({
      issuer: oidc.issuer,
      clientId: "client",
      additionalScopes: ["groups"],
      groupsClaim: "",
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
      pkceEnabled: false,
    });
    // default_role is REQUIRED (identity_providers.proto): it cannot be cleared.
    for (const mask of ["oidc", "default_role"]) {
      expect(
        (await refused("PATCH", iam("identityProviders", idp.uid), {}, { updateMask: mask })).join(),
      ).toMatch(/cannot be cleared/);
    }
    expect(
      (
        await refused("PATCH", iam("identityProviders", idp.uid), {}, { updateMask: "oidc.client_secret" })
      ).join(),
    ).toMatch(/oidc\.clientSecret: is required unless pkceEnabled is true/);
  });

  test("each validation rule is code 3 naming the field", async () => {
    const at = iam("identityProviders", g.uid);
    expect(await refused("POST", at, { name: "x", defaultRole: viewer })).toEqual(["oidc: is required"]);
    expect(
      await refused("POST", at, {
        name: "x",
        defaultRole: viewer,
        oidc: { ...oidc, issuer: "http://plain" },
      }),
    ).toEqual(["oidc.issuer: must be an https URL"]);
    expect(
      await refused("POST", at, {
        name: "x",
        defaultRole: viewer,
        oidc: { issuer: oidc.issuer, clientId: "c" },
      }),
    ).toEqual([
      "oidc.clientSecret: is required unless pkceEnabled is true: at least one of clientSecret or pkceEnabled must be set",
    ]);
    // Regression (issue 34): default_role is REQUIRED (identity_providers.proto), yet a create without it
    // was accepted.
    for (const defaultRole of [undefined, ""]) {
      expect(
        await refused("POST", at, { name: "x", oidc, ...(defaultRole === undefined ? {} : { defaultRole }) }),
      ).toEqual(["defaultRole: is required: the uid of the role users get at their first login"]);
    }
    expect((await refused("POST", at, { name: "x", defaultRole: "0".repeat(40), oidc })).join()).toMatch(
      /^defaultRole: no role has the uid/,
    );
  });
});

describe("account associations", () => {
  test("one per group, named by the group's uid; every provider; unset blocks are null; a mask clears one", async () => {
    const own = await emu.group(`aa-${++seq}`);
    const body = {
      name: "clouds",
      amazon: { account: "123456789012" },
      google: { projectId: "acme-prod", projectNumber: "42" },
      azure: { tenantId: "t", clientIds: { app: "c" } },
      github: { appInstallations: { "1234": { installations: [{ installationId: "7", name: "acme" }] } } },
      chainguard: { serviceBindings: { INGESTER: "svc" } },
    };
    const made = await emu.ok<Json>("POST", iam("accountAssociations", own.uid), { body });
    expect(made).toMatchObject({ uid: own.uid, ...body });
    expect(AccountAssociationsSchema.parse(made).uid).toBe(own.uid);
    const again = await emu.call<ErrorBody>("POST", iam("accountAssociations", own.uid), {
      body: { name: "second" },
    });
    expect([again.status, again.body.code]).toEqual([409, 6]);
    const less = await emu.ok<Json>("PATCH", iam("accountAssociations", own.uid), {
      body: {},
      query: { updateMask: "azure,github,chainguard,google" },
    });
    expect(less).toMatchObject({ azure: null, github: null, chainguard: null, google: null });
    expect(less.amazon).toEqual(body.amazon);
    expect(AccountAssociationsSchema.parse(less).azure).toBeUndefined();
    // int64 ids answer as protojson writes them, whatever JSON type the PATCH used.
    const numeric = await emu.ok<Json>("PATCH", iam("accountAssociations", own.uid), {
      body: { github: { appInstallations: { "5": { installations: [{ installationId: 9 }] } } } },
    });
    expect(numeric.github).toEqual({
      appInstallations: { "5": { installations: [{ installationId: "9" }] } },
    });
    const cleared = await emu.ok<Json>("PATCH", iam("accountAssociations", own.uid), {
      body: {},
      query: { updateMask: "github" },
    });
    expect(cleared.github).toBeNull();
    expect(await emu.ok<Json>("GET", iam("accountAssociations", own.uid))).toEqual(cleared);
    // Listed under its group, and in the subtree of the group itself.
    for (const query of [{ "uidp.children_of": own.uid }, { "uidp.descendants_of": own.uid }]) {
      const listed = await emu.ok<{ accountAssociations: Json[] }>(
        "GET",
        "/iam/v2beta1/accountAssociations",
        {
          query,
        },
      );
      expect(listed.accountAssociations.map((x) => x.uid)).toEqual([own.uid]);
    }
    expect((await emu.call("DELETE", iam("accountAssociations", own.uid))).status).toBe(200);
    expect((await emu.call("GET", iam("accountAssociations", own.uid))).status).toBe(404);
    expect((await emu.call("DELETE", iam("groups", own.uid))).status).toBe(200);
  });

  test("only a name is required; each validation rule is code 3 naming the field", async () => {
    const own = await emu.group(`aa-${++seq}`);
    const at = iam("accountAssociations", own.uid);
    expect(await refused("POST", at, {})).toEqual(["name: is required"]);
    expect(await refused("POST", at, { name: "n", amazon: { account: "12" } })).toEqual([
      "amazon.account: must be a 12-digit AWS account id",
    ]);
    expect(await refused("POST", at, { name: "n", google: { projectId: "p", projectNumber: "x" } })).toEqual([
      "google.projectNumber: must be digits",
    ]);
    expect(
      await refused("POST", at, {
        name: "n",
        github: { appInstallations: { "1": { installations: [{ installationId: "x" }] } } },
      }),
    ).toEqual(["github.appInstallations.1.installations.0.installationId: must be an integer"]);
    const bare = await emu.ok<Json>("POST", at, { body: { name: "bare", unknownKey: 1 } });
    expect(bare).toEqual({
      uid: own.uid,
      name: "bare",
      description: "",
      amazon: null,
      google: null,
      azure: null,
      github: null,
      chainguard: null,
      createTime: expect.any(String),
      updateTime: expect.any(String),
    });
  });
});

describe("group invites", () => {
  test("roleUid and ttl in; role hydrated, expirationTime = now + ttl, no updateTime; the code in the create answer only; never updated", async () => {
    const before = Date.now();
    const made = await emu.ok<Json>("POST", iam("groupInvites", g.uid), {
      body: { roleUid: viewer, ttl: "604800s", email: "dev@example.com", singleUse: true },
    });
    const invite = GroupInviteSchema.parse(made);
    expect(invite.code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(made).not.toHaveProperty("updateTime");
    expect(made).not.toHaveProperty("ttl");
    expect(invite.role).toMatchObject({ uid: viewer, name: "viewer" });
    expect(invite.role?.capabilities).toContain("groups.list");
    // On the wire, the published enum.
    expect((made.role as { capabilities: string[] }).capabilities).toContain("CAP_IAM_GROUPS_LIST");
    const lifetime = Date.parse(invite.expirationTime as string) - before;
    expect(lifetime).toBeGreaterThanOrEqual(604_800_000 - 1000);
    expect(lifetime).toBeLessThanOrEqual(604_800_000 + 60_000);
    // From the createTime exactly: one clock reading per create.
    expect(Date.parse(invite.expirationTime as string) - Date.parse(String(made.createTime))).toBe(
      604_800_000,
    );
    const got = await emu.ok<Json>("GET", iam("groupInvites", invite.uid));
    const listed = await emu.ok<Json>("GET", "/iam/v2beta1/groupInvites", {
      query: { "uidp.children_of": g.uid },
    });
    for (const answer of [got, listed]) expect(JSON.stringify(answer)).not.toContain(invite.code as string);
    expect(got).toMatchObject({
      roleUid: viewer,
      role: { uid: viewer, name: "viewer" },
      email: "dev@example.com",
      singleUse: true,
      expirationTime: invite.expirationTime,
    });
    // No Update rpc (published group_invites.proto): a PATCH is a wrong method, as for every kind
    // without one (regression: it answered code 3 where tags answered 405).
    const patch = await emu.call<ErrorBody>("PATCH", iam("groupInvites", invite.uid), {
      body: { email: "x@example.com" },
    });
    expect([patch.status, patch.body.code, patch.headers.get("allow")]).toEqual([
      405,
      12,
      "GET, POST, DELETE",
    ]);
    expect((await emu.call("DELETE", iam("groupInvites", invite.uid))).status).toBe(200);
  });

  test("each validation rule is code 3 naming the field", async () => {
    const at = iam("groupInvites", g.uid);
    expect(await refused("POST", at, { roleUid: viewer, ttl: "2592001s" })).toEqual([
      "ttl: must be a positive duration of at most 720h (30 days)",
    ]);
    expect((await refused("POST", at, { roleUid: viewer, ttl: "-1s" })).join()).toMatch(
      /^ttl: must be a positive duration/,
    );
    expect((await refused("POST", at, { roleUid: viewer })).join()).toMatch(/^ttl: /);
    // The gateway reads protojson's Duration only: the client converts "168h", the service does not.
    expect(await refused("POST", at, { roleUid: viewer, ttl: "168h" })).toEqual([
      'ttl: must be a protobuf Duration in seconds, such as "604800s"',
    ]);
    expect(await refused("POST", at, { roleUid: viewer, ttl: "3600s", email: "nope" })).toEqual([
      "email: must be an email address",
    ]);
    expect((await refused("POST", at, { roleUid: "abc", ttl: "3600s" })).join()).toMatch(/^roleUid: no role/);
    expect((await refused("POST", at, { ttl: "3600s" })).join()).toMatch(/^roleUid: /);
  });

  test("creating an invite also needs role_bindings.create on the group (published group_invites.proto:35-39)", async () => {
    const own = await emu.group(`inv-${++seq}`);
    const role = await emu.ok<{ uid: string }>("POST", iam("roles", own.uid), {
      body: {
        name: "inviter",
        capabilities: ["group_invites.create", "group_invites.list", "roles.list"].map(toWireCapability),
      },
    });
    const token = await emu.tokenWithRole(own.uid, "inviter");
    const denied = await emu.call<ErrorBody>("POST", iam("groupInvites", own.uid), {
      token,
      body: { roleUid: viewer, ttl: "3600s" },
    });
    expect(denied.body.code).toBe(7);
    expect(denied.body.message).toContain("role_bindings.create");
    expect(role.uid).toBeTruthy();
  });

  test("creating or updating an identity provider also needs role_bindings.create (identity_providers.proto:70-77, 102-109)", async () => {
    const own = await emu.group(`idp-${++seq}`);
    const caps = [
      "identity_providers.create",
      "identity_providers.update",
      "identity_providers.list",
      "roles.list",
    ];
    await emu.ok("POST", iam("roles", own.uid), {
      body: { name: "idp-admin", capabilities: caps.map(toWireCapability) },
    });
    const granterRole = await emu.ok<{ uid: string }>("POST", iam("roles", own.uid), {
      body: { name: "idp-granter", capabilities: [...caps, "role_bindings.create"].map(toWireCapability) },
    });
    const body = {
      name: "sso",
      defaultRole: granterRole.uid,
      oidc: { issuer: "https://i.example", clientId: "c", clientSecret: "s" },
    };
    const lacking = await emu.tokenWithRole(own.uid, "idp-admin");
    const denied = await emu.call<ErrorBody>("POST", iam("identityProviders", own.uid), {
      token: lacking,
      body,
    });
    expect([denied.body.code, denied.body.message]).toEqual([
      7,
      expect.stringContaining("role_bindings.create"),
    ]);
    const granter = await emu.tokenWithRole(own.uid, "idp-granter", own.uid);
    const made = await emu.call<{ uid: string }>("POST", iam("identityProviders", own.uid), {
      token: granter,
      body,
    });
    expect(made.status).toBe(200);
    const update = await emu.call<ErrorBody>("PATCH", iam("identityProviders", made.body.uid), {
      token: lacking,
      body: { description: "d" },
    });
    expect(update.body.code).toBe(7);
  });
});

describe("custom roles", () => {
  test("CRUD under a group; capabilities as enum names, never cleared; readable and bindable only in its subtree", async () => {
    const sub = await emu.group("sub", g.uid);
    const sibling = await emu.group(`sibling-${++seq}`);
    const created = await emu.ok<Json>("POST", iam("roles", g.uid), {
      body: { name: "auditor", capabilities: ["CAP_IAM_GROUPS_LIST"] },
    });
    // The published Role has no parent field (iam/v2beta1/roles.proto:142-172).
    expect(created).not.toHaveProperty("parentUid");
    const r = RoleSchema.parse(created);
    expect(r.capabilities).toEqual(["groups.list"]);
    const cleared = await emu.call<ErrorBody>("PATCH", iam("roles", r.uid), {
      body: {},
      query: { updateMask: "capabilities" },
    });
    expect(cleared.body.code).toBe(3);
    const grown = await emu.ok<Json>("PATCH", iam("roles", r.uid), {
      body: { capabilities: ["CAP_IAM_IDENTITY_LIST", "CAP_IAM_GROUPS_LIST"] },
      query: { update_mask: "capabilities" },
    });
    expect(grown.capabilities).toEqual(["CAP_IAM_GROUPS_LIST", "CAP_IAM_IDENTITY_LIST"]);
    const scoped = await emu.ok<{ roles: { name: string }[] }>("GET", "/iam/v2beta1/roles", {
      query: { "uidp.children_of": g.uid },
    });
    expect(scoped.roles.map((x) => x.name).sort()).toEqual([
      "apk.pull",
      "auditor",
      "editor",
      "limited_owner",
      "owner",
      "registry.pull",
      "registry.pull_token_creator",
      "viewer",
    ]);
    const idSub = await emu.identity(sub.uid, `s${++seq}`);
    expect(
      (
        await emu.call("POST", iam("roleBindings", sub.uid), {
          body: { identityUid: idSub.uid, roleUid: r.uid },
        })
      ).status,
    ).toBe(200);
    const idSibling = await emu.identity(sibling.uid, `s${++seq}`);
    expect(
      (
        await refused("POST", iam("roleBindings", sibling.uid), {
          identityUid: idSibling.uid,
          roleUid: r.uid,
        })
      ).join(),
    ).toMatch(/^roleUid: role "auditor" is defined in group .* and can be granted only there and below/);
    // Readable to a viewer of the subgroup (where it can be bound), not to one of the sibling.
    const subViewer = await emu.tokenWithRole(sub.uid, "viewer");
    expect((await emu.call("GET", iam("roles", r.uid), { token: subViewer })).status).toBe(200);
    const siblingViewer = await emu.tokenWithRole(sibling.uid, "viewer");
    expect((await emu.call<ErrorBody>("GET", iam("roles", r.uid), { token: siblingViewer })).body.code).toBe(
      5,
    );
    const names = await emu.ok<{ roles: { name: string }[] }>("GET", "/iam/v2beta1/roles", {
      token: siblingViewer,
    });
    expect(names.roles.map((x) => x.name)).not.toContain("auditor");
  });

  test("a group holding a custom role, an identity provider, associations or an invite refuses its delete, naming each", async () => {
    const full = await emu.group(`full-${++seq}`);
    await emu.ok("POST", iam("roles", full.uid), {
      body: { name: "held", capabilities: ["CAP_IAM_GROUPS_LIST"] },
    });
    await emu.ok("POST", iam("identityProviders", full.uid), {
      body: {
        name: "idp",
        defaultRole: viewer,
        oidc: { issuer: "https://i.example", clientId: "c", clientSecret: "s" },
      },
    });
    await emu.ok("POST", iam("accountAssociations", full.uid), {
      body: { name: "aa", amazon: { account: "123456789012" } },
    });
    await emu.ok("POST", iam("groupInvites", full.uid), { body: { roleUid: viewer, ttl: "86400s" } });
    const a = await emu.call<ErrorBody>("DELETE", iam("groups", full.uid));
    expect(a.body.code).toBe(9);
    const v = detail<{ violations: { type: string; description: string }[] }>(
      a.body,
      "PreconditionFailure",
    ).violations;
    expect(v.map((x) => x.description.replace(/ \(uid .*\)$/, ""))).toEqual([
      'group has child role "held"',
      'group has child identity provider "idp"',
      'group has child account association "aa"',
      "group has child group invite",
    ]);
    expect(v.every((x) => x.type === "RESOURCE_NOT_EMPTY")).toBe(true);
  });
});

describe("identity variants", () => {
  const at = () => iam("identities", g.uid);
  const jwks = JSON.stringify({ keys: [{ kty: "EC", crv: "P-256", x: "x", y: "y" }] });

  test("each variant is answered in the gateway's form; switching variants with a mask replaces the old one", async () => {
    const unset = { description: "" };
    const expirationTime = inDays(10);
    const variants = [
      {
        sent: {
          claimMatch: {
            issuerPattern: "https://.*\\.example",
            subjectPattern: "repo:acme/.*",
            claims: { ref: "main" },
          },
        },
        answered: {
          claimMatch: {
            issuerPattern: "https://.*\\.example",
            subjectPattern: "repo:acme/.*",
            claims: { ref: "main" },
            claimPatterns: {},
          },
        },
      },
      {
        sent: {
          awsIdentity: {
            awsAccount: "123456789012",
            arn: "arn:aws:iam::123456789012:role/ci",
            userIdPattern: "AROA.*",
          },
        },
        answered: {
          awsIdentity: {
            awsAccount: "123456789012",
            arn: "arn:aws:iam::123456789012:role/ci",
            userIdPattern: "AROA.*",
          },
        },
      },
      {
        sent: {
          staticKeys: {
            issuer: "https://ci.internal",
            subject: "deployer",
            issuerKeys: jwks,
            expirationTime,
          },
        },
        answered: {
          staticKeys: {
            issuer: "https://ci.internal",
            subject: "deployer",
            issuerKeys: jwks,
            expirationTime,
            audiences: [],
          },
        },
      },
      {
        sent: { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" },
        answered: { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" },
      },
    ];
    for (const v of variants) {
      const made = await emu.ok<Json>("POST", at(), { body: { name: `v${++seq}`, ...v.sent } });
      const others = ["claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"].filter(
        (k) => !(k in v.sent),
      );
      expect(made).toMatchObject({ ...unset, ...v.answered });
      for (const k of others) expect(made).not.toHaveProperty(k); // unset oneof members are left out
      expect(IdentitySchema.parse(made)).toMatchObject(v.sent);
    }
    const id = await emu.identity(g.uid, `switch-${++seq}`);
    const switched = await emu.ok<Json>("PATCH", iam("identities", id.uid), {
      body: { servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" },
      query: { updateMask: "claimMatch,servicePrincipal" },
    });
    expect(switched).not.toHaveProperty("claimMatch");
    expect(switched.servicePrincipal).toBe("SERVICE_PRINCIPAL_COSIGNED");
  });

  test("static keys expire by default, and at the latest, 365 days after the identity's creation", async () => {
    const keys = { issuer: "https://ci.internal", subject: "deployer", issuerKeys: jwks };
    const made = await emu.ok<Json>("POST", at(), { body: { name: `k${++seq}`, staticKeys: keys } });
    const created = Date.parse(String(made.createTime));
    const expires = (made.staticKeys as Json).expirationTime;
    expect(Date.parse(String(expires)) - created).toBe(365 * 86_400_000);
    const rule =
      "staticKeys.expirationTime: must be in the future and at most 365 days after the identity's creation";
    expect(
      (
        await refused("POST", at(), { name: "n", staticKeys: { ...keys, expirationTime: inDays(366) } })
      ).join(),
    ).toContain(rule);
    expect(
      (
        await refused("POST", at(), { name: "n", staticKeys: { ...keys, expirationTime: inDays(-1) } })
      ).join(),
    ).toContain(rule);
    const later = await refused(
      "PATCH",
      iam("identities", String(made.uid)),
      { staticKeys: { expirationTime: inDays(400) } },
      { updateMask: "staticKeys.expirationTime" },
    );
    expect(later.join()).toContain(rule);
    expect(
      await refused("POST", at(), { name: "n", staticKeys: { ...keys, audiences: ["a", "b"] } }),
    ).toEqual([
      "staticKeys.audiences: takes at most one audience (the service supports a single one for now)",
    ]);
  });

  test("the names 0.x sent are not published fields: dropped on create like any unknown key", async () => {
    expect(
      await refused("POST", at(), {
        name: "n",
        static: {
          issuer: "https://ci.internal",
          subject: "deployer",
          issuerKeys: jwks,
          expiration: inDays(1),
        },
      }),
    ).toEqual([
      "claimMatch: exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal is required",
    ]);
    const aws = await refused("POST", at(), {
      name: "n",
      awsIdentity: {
        awsAccount: "123456789012",
        awsArn: "arn:aws:iam::123456789012:role/ci",
        awsUserId: "AROA1",
      },
    });
    expect(aws).toEqual([
      "awsIdentity.arn: exactly one of arn, arnPattern is required",
      "awsIdentity.userId: exactly one of userId, userIdPattern is required",
    ]);
    // A PATCH body key the message lacks is refused (grpc-gateway's FieldMaskFromRequestBody).
    const id = await emu.identity(g.uid, `old-${++seq}`);
    const patched = await refused(
      "PATCH",
      iam("identities", id.uid),
      { static: { issuer: "https://ci.internal", subject: "deployer", issuerKeys: jwks } },
      { updateMask: "static_keys" },
    );
    expect(patched).toEqual(['static: could not find field "static" in identity resources']);
  });

  test("each validation rule is code 3 naming the field", async () => {
    expect(await refused("POST", at(), { name: "n" })).toEqual([
      "claimMatch: exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal is required",
    ]);
    expect(
      await refused("POST", at(), {
        name: "n",
        claimMatch: { issuer: "https://i", subject: "s" },
        servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED",
      }),
    ).toEqual([
      "servicePrincipal: exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal is required (got claimMatch and servicePrincipal)",
    ]);
    expect(
      await refused("POST", at(), {
        name: "n",
        claimMatch: { issuer: "https://i", subjectPattern: "repo:(" },
      }),
    ).toEqual([
      "claimMatch.subjectPattern: is not a valid RE2 pattern: missing closing ) at the end (the service's patterns are Go regular expressions: no look-around or back-references)",
    ]);
    expect(
      await refused("POST", at(), {
        name: "n",
        claimMatch: { issuer: "https://i", issuerPattern: "x", subject: "s" },
      }),
    ).toEqual([
      "claimMatch.issuerPattern: exactly one of issuer, issuerPattern is required (got issuer and issuerPattern)",
    ]);
    expect(
      await refused("POST", at(), {
        name: "n",
        claimMatch: { issuer: "https://i", subject: "s", claimPatterns: { ref: "[" } },
      }),
    ).toEqual([
      "claimMatch.claimPatterns.ref: is not a valid RE2 pattern: missing closing ] at the end (the service's patterns are Go regular expressions: no look-around or back-references)",
    ]);
    expect(
      await refused("POST", at(), {
        name: "n",
        awsIdentity: { awsAccount: "1", arn: "a", userId: "u" },
      }),
    ).toEqual(["awsIdentity.awsAccount: must be a 12-digit AWS account id"]);
    expect(
      await refused("POST", at(), {
        name: "n",
        staticKeys: { issuer: "https://i", subject: "s", issuerKeys: "{}", expirationTime: inDays(1) },
      }),
    ).toEqual([
      'staticKeys.issuerKeys: must be a JWKS of public keys as JSON text: {"keys": [{"kty": …}, …]}',
    ]);
    const privateJwks = JSON.stringify({ keys: [{ kty: "EC", crv: "P-256", x: "x", y: "y", d: "secret" }] });
    const withPrivate = await refused("POST", at(), {
      name: "n",
      staticKeys: { issuer: "https://i", subject: "s", issuerKeys: privateJwks, expirationTime: inDays(1) },
    });
    expect(withPrivate.join()).toMatch(/^staticKeys\.issuerKeys: must be a JWKS of public keys/);
    expect((await refused("POST", at(), { name: "n", servicePrincipal: "REGISTRY" })).join()).toMatch(
      /^servicePrincipal: must be one of SERVICE_PRINCIPAL_COSIGNED, SERVICE_PRINCIPAL_INGESTER, /,
    );
    const id = await emu.identity(g.uid, `clear-${++seq}`);
    expect(
      await refused("PATCH", iam("identities", id.uid), {}, { updateMask: "claimMatch.subject" }),
    ).toEqual(["claimMatch.subject: exactly one of subject, subjectPattern is required"]);
  });
});

describe("fixtures", () => {
  test("seed every IAM kind, roles named from the group upwards; write-only fields stay hidden", async () => {
    const created = await emu.ok<{ created: Record<string, number> }>("POST", "/_emulator/fixtures", {
      body: {
        groups: [
          {
            name: "seeded",
            roles: [{ name: "puller", capabilities: ["repo.list", "tag.list"] }],
            groups: [
              {
                name: "inner",
                identities: [
                  {
                    name: "aws",
                    awsIdentity: {
                      awsAccount: "123456789012",
                      arn: "arn:aws:iam::123456789012:role/x",
                      userIdPattern: ".*",
                    },
                  },
                  {
                    name: "ci",
                    claimMatch: { issuer: emu.issuerUrl, subjectPattern: "repo:acme/.*" },
                    roles: ["puller", "viewer"],
                  },
                ],
                groupInvites: [{ role: "puller", ttl: "48h", email: "new@example.com" }],
              },
            ],
            identityProviders: [
              {
                name: "corp",
                defaultRole: "puller",
                oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "fixture-secret" },
              },
            ],
            accountAssociations: [
              {
                name: "gh",
                github: { appInstallations: { "9": { installations: [{ installationId: "3" }] } } },
              },
            ],
          },
        ],
      },
    });
    expect(created.created).toEqual({
      groups: 2,
      roles: 1,
      identities: 2,
      roleBindings: 2,
      identityProviders: 1,
      accountAssociations: 1,
      groupInvites: 1,
    });
    const idps = await emu.ok<{ identityProviders: Json[] }>("GET", "/iam/v2beta1/identityProviders", {
      query: { name: "corp" },
    });
    expect(JSON.stringify(idps)).not.toContain("fixture-secret");
    const puller = await emu.roleUid("puller");
    expect(idps.identityProviders[0]?.defaultRole).toBe(puller);
    const bad = await emu.call<ErrorBody>("POST", "/_emulator/fixtures", {
      body: { groupInvites: [{ role: "no-such-role", ttl: "24h" }] },
    });
    expect(bad.body.code).toBe(3);
    expect(bad.body.message).toContain('no role named "no-such-role"');
  });
});
