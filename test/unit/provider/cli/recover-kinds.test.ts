import { describe, expect, it } from "vitest";
import { RECOVER_KINDS, recoverMismatch } from "../../../../provider/cli/recover-kinds.js";
import { RESOURCE_TYPES } from "../../../../provider/stub/index.js";

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
      RESOURCE_TYPES.filter((t) => t !== "PullToken")
        .map((t) => `pulumi-nodejs:dynamic/irv:${t}`)
        .sort(),
    );
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

  it("match a repo without its sync source (answered as a uid whatever was sent) and its README, sync_config under its wire name", () => {
    expect(
      kind("Repo").request({
        parentUid: GROUP,
        name: "nginx-mirror",
        syncConfig: {
          source: "chainguard/nginx",
          amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/nginx",
        },
        customOverlay: { contents: { packages: ["curl"] } },
        readme: "# nginx",
      }),
    ).toEqual({
      parentUid: GROUP,
      body: {
        name: "nginx-mirror",
        customOverlay: { contents: { packages: ["curl"] } },
        sync_config: { amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/nginx" },
      },
    });
  });

  it("match an overlay's packages and a binding's tags as sets, a binding's overlay by uid or name, apart from the fields compared as sent", () => {
    const overlay = kind("Overlay").request({
      parentUid: GROUP,
      name: "tools",
      config: { contents: { packages: ["jq", "curl"] } },
    });
    expect(overlay).toEqual({
      parentUid: GROUP,
      body: { name: "tools" },
      match: { packages: ["jq", "curl"] },
    });
    const repo = `${GROUP}/00000000000000c3`;
    expect(
      kind("OverlayBinding").request({ repoUid: repo, overlay: "tools", tags: ["v1", "latest"] }),
    ).toEqual({
      parentUid: repo,
      body: {},
      match: { overlay: "tools", tags: ["v1", "latest"] },
    });
  });

  it("match a mapping under its identity provider by external group and role (it has no name)", () => {
    const idp = `${GROUP}/00000000000000d4`;
    expect(
      kind("ExternalGroupRoleMapping").request({
        identityProviderUid: idp,
        externalGroupId: "admins",
        roleUid: ROLE,
        scope: ORG,
      }),
    ).toEqual({ parentUid: idp, body: { externalGroupId: "admins", roleUid: ROLE, scope: ORG } });
  });

  // Their published messages have no creation time: lostCreateMismatch alone refuses every one.
  it("adopt a tag, overlay, binding or subscription on its parent and fields alone, and still refuse one whose fields differ", () => {
    const repo = `${GROUP}/00000000000000c3`;
    const digest = `sha256:${"a".repeat(64)}`;
    const tag = kind("Tag");
    const r = tag.request({ repoUid: repo, name: "latest", digest });
    const sent = { parentUid: r.parentUid, body: r.body, startedAt: Date.now(), clockSkewMs: 500 };
    const found = { uid: `${repo}/00000000000000e5`, name: "latest", digest, deprecated: false, bundles: [] };
    expect(recoverMismatch(tag, found, sent)).toBeUndefined();
    expect(recoverMismatch(tag, { ...found, digest: `sha256:${"b".repeat(64)}` }, sent)).toBe(
      "its digest differs from the one sent",
    );
    expect(recoverMismatch(tag, { ...found, uid: `${GROUP}/00000000000000f6/00000000000000e5` }, sent)).toBe(
      `it is not under ${repo}`,
    );
    for (const type of ["Tag", "Overlay", "OverlayBinding", "Subscription"])
      expect(kind(type).timeless, type).toBeDefined();
    // A kind with a creation time is still held to it.
    const mapping = kind("ExternalGroupRoleMapping");
    expect(mapping.timeless).toBeUndefined();
    const m = mapping.request({
      identityProviderUid: `${GROUP}/00000000000000d4`,
      externalGroupId: "a",
      roleUid: ROLE,
    });
    expect(
      recoverMismatch(
        mapping,
        {
          uid: `${GROUP}/00000000000000d4/00000000000000e7`,
          externalGroupId: "a",
          roleUid: ROLE,
          createTime: "2020-01-01T00:00:00Z",
        },
        { parentUid: m.parentUid, body: m.body, startedAt: Date.now(), clockSkewMs: 500 },
      ),
    ).toContain("before this create began");
  });
});
