import { describe, expect, it } from "vitest";
import { RECOVER_KINDS, revealed } from "../../../../provider/cli/recover-kinds.js";
import { RESOURCE_TYPES } from "../../../../provider/stub/index.js";

// Issue 45's kinds get their recover entries with `recover`'s own change (an entry that exists
// already counts: the list only shrinks).
const AWAITING_RECOVER: readonly string[] = [
  "ExternalGroupRoleMapping",
  "Repo",
  "Tag",
  "Overlay",
  "OverlayBinding",
  "Subscription",
].filter((t) => !(`pulumi-nodejs:dynamic/irv:${t}` in RECOVER_KINDS));
const ORG = "0123456789abcdef0123456789abcdef01234567";
const GROUP = `${ORG}/00000000000000a1`;
const ROLE = "00000000000000000000000000000000000000b2";
const PROVIDER = "urn:pulumi:dev::p::pulumi:providers:pulumi-nodejs::default::id";
const kind = (type: string) => {
  const k = RECOVER_KINDS[`pulumi-nodejs:dynamic/irv:${type}`];
  if (k === undefined) throw new Error(`no entry for ${type}`);
  return k;
};
// A secret as `pulumi stack export --show-secrets` writes it.
const secret = (v: unknown) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  plaintext: JSON.stringify(v),
});

describe("recover kinds", () => {
  // But pull tokens: what an interrupted create made is useless (its password died with the process
  // that signed it), so recover names it to be deleted by hand instead of adopting it.
  it("have an entry for every resource type the provider creates, pull tokens aside", () => {
    expect(Object.keys(RECOVER_KINDS).sort()).toEqual(
      RESOURCE_TYPES.filter((t) => t !== "PullToken" && !AWAITING_RECOVER.includes(t))
        .map((t) => `pulumi-nodejs:dynamic/irv:${t}`)
        .sort(),
    );
  });

  it("reveal exported secrets so that they compare with what the service returns", () => {
    expect(revealed({ a: [secret("k")], b: { c: secret({ d: 1 }) }, e: "x" })).toEqual({
      a: ["k"],
      b: { c: { d: 1 } },
      e: "x",
    });
  });

  it("match a custom role in its parent's list (flat uids; the API returns no parent) by its capabilities as a sorted set", () => {
    const role = kind("Role");
    expect(role.flatUids).toBe(true);
    expect(
      role.request({
        parentUid: GROUP,
        name: "auditor",
        capabilities: ["roles.list", "groups.list", "roles.list"],
      }),
    ).toEqual({
      parentUid: GROUP,
      body: { name: "auditor", capabilities: ["groups.list", "roles.list"] },
    });
  });

  it("match an identity by its variant, a secret staticKeys.issuerKeys by its plaintext", () => {
    const keys = JSON.stringify({ keys: [{ kty: "EC" }] });
    const r = kind("Identity").request({
      __provider: PROVIDER,
      groupUid: GROUP,
      name: "ci",
      staticKeys: {
        issuer: "https://ci",
        subject: "d",
        issuerKeys: secret(keys),
        expirationTime: "2027-01-01T00:00:00Z",
      },
    });
    expect(r).toEqual({
      parentUid: GROUP,
      body: {
        name: "ci",
        staticKeys: {
          issuer: "https://ci",
          subject: "d",
          issuerKeys: keys,
          expirationTime: "2027-01-01T00:00:00Z",
        },
      },
    });
    const aws = kind("Identity").request({
      groupUid: GROUP,
      name: "aws",
      awsIdentity: { awsAccount: "123456789012" },
    });
    expect(aws.body).toEqual({ name: "aws", awsIdentity: { awsAccount: "123456789012" } });
  });

  it("match an identity provider without its client secret, its default role in the API's name", () => {
    const r = kind("IdentityProvider").request({
      parentUid: GROUP,
      name: "sso",
      defaultRoleUid: ROLE,
      oidc: { issuer: "https://accounts.example.com", clientId: "irv", clientSecret: secret("s3cr3t") },
    });
    expect(r).toEqual({
      parentUid: GROUP,
      body: {
        name: "sso",
        defaultRole: ROLE,
        oidc: { issuer: "https://accounts.example.com", clientId: "irv" },
      },
    });
    expect(JSON.stringify(r)).not.toContain("s3cr3t");
  });

  it("match account associations by name and blocks", () => {
    expect(
      kind("AccountAssociations").request({
        groupUid: GROUP,
        name: "prod",
        amazon: { account: "123456789012" },
        github: { installations: [{ id: 7 }] },
      }),
    ).toEqual({
      parentUid: GROUP,
      body: { name: "prod", amazon: { account: "123456789012" }, github: { installations: [{ id: 7 }] } },
    });
  });

  it("match an invite by role, email and single use, not by the ttl (input only in the API)", () => {
    const invite = kind("GroupInvite");
    expect(invite.request({ groupUid: GROUP, roleUid: ROLE, ttl: "168h", email: "a@example.com" })).toEqual({
      parentUid: GROUP,
      body: { roleUid: ROLE, email: "a@example.com", singleUse: false },
    });
    expect(invite.adoptNote).toContain("pulumi up --replace");
  });
});
