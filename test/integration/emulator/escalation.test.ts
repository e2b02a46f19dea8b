// No privilege escalation (issue 12, issue 10 item 8): nobody hands out — by defining a role,
// binding one, inviting with one, making one an identity provider's default, or taking over an
// identity — capabilities it does not itself hold there. Tokens come through the real STS flow.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CAPABILITIES, toWireCapability } from "../../../sdk/index.js";
import type { ErrorBody, Group, TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

let emu: TestEmulator;
let team: Group;
let seq = 0;
const day = () => new Date(Date.now() + 86_400_000).toISOString();

beforeAll(async () => {
  emu = await startTestEmulator();
  team = await emu.group("team");
});
afterAll(() => emu.close());

async function customRole(
  capabilities: string[],
  where = emu.orgUid,
): Promise<{ uid: string; name: string }> {
  return emu.ok("POST", `/iam/v2beta1/roles/${where}`, {
    body: { name: `custom-${++seq}`, capabilities: capabilities.map(toWireCapability) },
  });
}

// Every IAM write but granting (binding roles, defining them): what can take over an identity
// without being allowed to hand out access. (The published editor holds no IAM write at all.)
const IAM_WRITER = CAPABILITIES.filter((c) => !/^(role_bindings|roles)\.(create|update|delete)$/.test(c));
const iamWriterToken = async () => emu.tokenWithRole(team.uid, (await customRole(IAM_WRITER)).name);

async function codeOf(method: string, path: string, token: string, body?: unknown): Promise<number> {
  const a = await emu.call<ErrorBody>(method, path, { token, body });
  return a.status === 200 ? 0 : a.body.code;
}

describe("identities (issue 10 item 8)", () => {
  test("regression: an IAM writer cannot re-point an owner identity's subject to itself, assume it and bind itself owner", async () => {
    const editor = await iamWriterToken();
    const ownerId = await emu.identity(team.uid, "deployer", "owner-subject");
    await emu.ok("POST", `/iam/v2beta1/roleBindings/${team.uid}`, {
      body: { identityUid: ownerId.uid, roleUid: await emu.roleUid("owner") },
    });
    const takeover = await emu.call<ErrorBody>("PATCH", `/iam/v2beta1/identities/${ownerId.uid}`, {
      token: editor,
      body: { claimMatch: { subject: "attacker" } },
    });
    expect(takeover.body.code).toBe(7);
    expect(takeover.body.message).toMatch(/role_bindings\.create.*no privilege escalation/);
    for (const body of [
      { claimMatch: { issuer: emu.issuerUrl, subjectPattern: ".*" } },
      {
        staticKeys: {
          issuer: "https://x",
          subject: "y",
          issuerKeys: '{"keys":[{"kty":"EC"}]}',
          expirationTime: day(),
        },
      },
    ]) {
      const mask = Object.keys(body).concat("claimMatch").join(",");
      expect(
        await codeOf("PATCH", `/iam/v2beta1/identities/${ownerId.uid}?updateMask=${mask}`, editor, body),
      ).toBe(7);
    }
    expect(await codeOf("DELETE", `/iam/v2beta1/identities/${ownerId.uid}`, editor)).toBe(7);
    // The attacker's own token still cannot assume it: the identity is unchanged.
    const stolen = await emu.exchange(await emu.workloadToken("attacker"), ownerId.uid);
    expect(stolen.body.code).toBe(7);
    // Fields that do not decide who assumes it stay the editor's to change.
    expect(
      await codeOf("PATCH", `/iam/v2beta1/identities/${ownerId.uid}`, editor, { description: "x" }),
    ).toBe(0);
  });

  test("an IAM writer may re-point or delete an identity that holds no more than it does", async () => {
    const editor = await iamWriterToken();
    const viewerId = await emu.identity(team.uid, `v${++seq}`);
    await emu.ok("POST", `/iam/v2beta1/roleBindings/${team.uid}`, {
      body: { identityUid: viewerId.uid, roleUid: await emu.roleUid("viewer") },
    });
    const body = { claimMatch: { subject: "new-subject" } };
    expect(await codeOf("PATCH", `/iam/v2beta1/identities/${viewerId.uid}`, editor, body)).toBe(0);
    expect(await codeOf("DELETE", `/iam/v2beta1/identities/${viewerId.uid}`, editor)).toBe(0);
  });

  test("an owner of the group may change who assumes an owner identity", async () => {
    const owner = await emu.tokenWithRole(team.uid, "owner");
    const id = await emu.identity(team.uid, `o${++seq}`);
    await emu.ok("POST", `/iam/v2beta1/roleBindings/${team.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("owner") },
    });
    expect(
      await codeOf("PATCH", `/iam/v2beta1/identities/${id.uid}`, owner, {
        claimMatch: { subject: "rotated" },
      }),
    ).toBe(0);
  });
});

describe("roles, bindings, invites and identity providers", () => {
  let granter: string;
  beforeAll(async () => {
    // May define and bind roles, invite, and manage identity providers, but holds little else.
    const role = await customRole([
      "groups.list",
      "identity.list",
      "role_bindings.create",
      "roles.create",
      "roles.update",
      "group_invites.create",
      "identity_providers.create",
      "identity_providers.update",
    ]);
    granter = await emu.tokenWithRole(team.uid, role.name);
  });

  test("defining a role with a capability the caller lacks is 7 naming it; a subset of its own is fine", async () => {
    const over = await emu.call<ErrorBody>("POST", `/iam/v2beta1/roles/${team.uid}`, {
      token: granter,
      body: { name: `r${++seq}`, capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_GROUPS_DELETE"] },
    });
    expect(over.body.code).toBe(7);
    expect(over.body.message).toContain("groups.delete");
    const ok = await emu.call<{ uid: string }>("POST", `/iam/v2beta1/roles/${team.uid}`, {
      token: granter,
      body: { name: `r${++seq}`, capabilities: ["CAP_IAM_GROUPS_LIST"] },
    });
    expect(ok.status).toBe(200);
    const grow = await emu.call<ErrorBody>("PATCH", `/iam/v2beta1/roles/${ok.body.uid}`, {
      token: granter,
      body: { capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_ROLES_DELETE"] },
    });
    expect(grow.body.code).toBe(7);
  });

  test("binding a role that grants more than the caller holds is 7; a role within its own is fine", async () => {
    const id = await emu.identity(team.uid, `b${++seq}`);
    const bind = (roleUid: string) =>
      codeOf("POST", `/iam/v2beta1/roleBindings/${team.uid}`, granter, { identityUid: id.uid, roleUid });
    expect(await bind(await emu.roleUid("editor"))).toBe(7);
    expect(await bind(await emu.roleUid("owner"))).toBe(7);
    expect(await bind((await customRole(["groups.list"])).uid)).toBe(0);
  });

  test("an invite or an identity provider's default role beyond the caller's own is 7", async () => {
    const editor = await emu.roleUid("editor");
    const invite = (role: string) =>
      codeOf("POST", `/iam/v2beta1/groupInvites/${team.uid}`, granter, { roleUid: role, ttl: "86400s" });
    expect(await invite(editor)).toBe(7);
    const small = await customRole(["identity.list"]);
    expect(await invite(small.uid)).toBe(0);
    const oidc = { issuer: "https://idp.example", clientId: "c", clientSecret: "s" };
    const idp = (defaultRole: string) =>
      emu.call<{ uid: string } & ErrorBody>("POST", `/iam/v2beta1/identityProviders/${team.uid}`, {
        token: granter,
        body: { name: `idp${++seq}`, defaultRole, oidc },
      });
    expect((await idp(editor)).body.code).toBe(7);
    const made = await idp(small.uid);
    expect(made.status).toBe(200);
    expect(
      await codeOf("PATCH", `/iam/v2beta1/identityProviders/${made.body.uid}`, granter, {
        defaultRole: editor,
      }),
    ).toBe(7);
  });
});

describe("role bindings show who an identity is only to its readers", () => {
  test("a caller without identity.list sees the binding's identity without issuer and subject", async () => {
    const auditor = await customRole(["groups.list", "role_bindings.list"]);
    const t = await emu.tokenWithRole(team.uid, auditor.name);
    const id = await emu.identity(team.uid, `h${++seq}`, "secret-subject");
    const b = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${team.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
    });
    const seen = await emu.ok<{ identity: Record<string, unknown> }>(
      "GET",
      `/iam/v2beta1/roleBindings/${b.uid}`,
      {
        token: t,
      },
    );
    expect(seen.identity).toEqual({ uid: id.uid, name: id.name, description: "" });
    expect(JSON.stringify(seen)).not.toContain("secret-subject");
    const listed = await emu.ok<{ roleBindings: unknown[] }>("GET", "/iam/v2beta1/roleBindings", {
      token: t,
      query: { "uidp.children_of": team.uid },
    });
    expect(JSON.stringify(listed)).not.toContain("secret-subject");
    const viewer = await emu.tokenWithRole(team.uid, "viewer");
    const full = await emu.ok<{ identity: { subject: string } }>(
      "GET",
      `/iam/v2beta1/roleBindings/${b.uid}`,
      {
        token: viewer,
      },
    );
    expect(full.identity.subject).toBe("secret-subject");
  });
});
