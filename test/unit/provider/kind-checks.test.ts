// What `pulumi preview` says about bad inputs of the IAM kinds, before any API call.
import { describe, expect, it } from "vitest";
import {
  accountAssociationsKind,
  durationMs,
  groupInviteKind,
  identityKind,
  identityProviderKind,
  makeProvider,
  roleKind,
} from "../../../provider/runtime/index.js";
import type { IrvClient } from "../../../sdk/index.js";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const noClient = (): IrvClient => {
  throw new Error("check and diff must not call the API");
};
const G = "0123456789abcdef0123456789abcdef01234567/0123456789abcdef";
const ROLE = "0123456789abcdef";
const JWKS = JSON.stringify({
  keys: [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }],
});

describe("Role check", () => {
  const role = makeProvider(roleKind, noClient);

  it("refuses a capability the sdk does not know, naming its position and the valid list", async () => {
    const r = await role.check(
      {},
      { parentUid: G, name: "r", capabilities: ["groups.list", "groups.destroy"] },
    );
    expect(r.failures).toEqual([
      {
        property: "capabilities.1",
        reason: expect.stringContaining('role capabilities.1 "groups.destroy" is not a capability'),
      },
    ]);
  });

  it("says capabilities are required", async () => {
    const r = await role.check({}, { parentUid: G, name: "r" });
    expect(r.failures?.[0]?.reason).toMatch(
      /role capabilities is required: the capabilities the role grants/,
    );
  });
});

describe("Identity check", () => {
  const identity = makeProvider(identityKind, noClient);
  const base = { groupUid: G, name: "ci" };

  it("refuses two variants, naming both", async () => {
    const r = await identity.check(
      {},
      {
        ...base,
        claimMatch: { issuer: "https://i.example", subject: "s" },
        servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED",
      },
    );
    expect(r.failures).toEqual([
      {
        property: "servicePrincipal",
        reason:
          "identity servicePrincipal exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal is required (they say who may assume the identity), got claimMatch and servicePrincipal (got a string of 26 characters)",
      },
    ]);
  });

  it("refuses an identity with no variant, naming the fields to choose from", async () => {
    const r = await identity.check({}, base);
    expect(r.failures?.[0]?.reason).toContain(
      "exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal is required (they say who may assume the identity), got none",
    );
  });

  it("refuses a subject pattern that is not a regular expression and a plain-http issuer", async () => {
    const r = await identity.check(
      {},
      { ...base, claimMatch: { issuer: "http://i.example", subjectPattern: "repo:(" } },
    );
    expect(r.failures?.map((f) => f.property).sort()).toEqual([
      "claimMatch.issuer",
      "claimMatch.subjectPattern",
    ]);
  });

  // Regression (issue 25 item 1): patterns were JavaScript regexes, so preview accepted a look-ahead
  // the service (Go's RE2) refuses, and refused `(?i)`, which it accepts.
  it("refuses a look-ahead at preview, naming the field, RE2's reason and the character", async () => {
    const r = await identity.check(
      {},
      { ...base, claimMatch: { issuer: "https://i.example", subjectPattern: "repo:acme/(?!evil).*" } },
    );
    expect(r.failures).toEqual([
      {
        property: "claimMatch.subjectPattern",
        reason: expect.stringMatching(
          /^identity claimMatch\.subjectPattern is not a valid RE2 pattern: invalid or unsupported Perl syntax at character 11 /,
        ),
      },
    ]);
  });

  it("accepts RE2 syntax JavaScript lacks: (?i), \\pL, (?P<name>…)", async () => {
    const r = await identity.check(
      {},
      {
        ...base,
        claimMatch: {
          issuer: "https://i.example",
          subjectPattern: "(?i)repo:acme/\\pL+:environment:(?P<env>staging|production)",
          claimPatterns: { ref: "(?i)refs/heads/main" },
        },
      },
    );
    expect(r.failures).toEqual([]);
  });

  it("accepts each variant alone, and a variant unknown during preview", async () => {
    for (const variant of [
      {
        claimMatch: {
          issuerPattern: "https://gitlab\\.example\\.com",
          subject: "project_path:acme/app:ref_type:branch:ref:main",
        },
      },
      {
        awsIdentity: {
          awsAccount: "123456789012",
          arn: "arn:aws:iam::123456789012:role/ci",
          userId: "AROA1",
        },
      },
      { staticKeys: { issuer: "https://ci.internal", subject: "deployer", issuerKeys: JWKS } },
      {
        staticKeys: {
          issuer: "https://ci.internal",
          subject: "deployer",
          issuerKeys: JWKS,
          expirationTime: "2027-01-01T00:00:00Z",
          audiences: ["ci"],
        },
      },
      { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" },
      { servicePrincipal: "SERVICE_PRINCIPAL_SKILLS" },
      { claimMatch: UNKNOWN },
    ])
      expect((await identity.check({}, { ...base, ...variant })).failures).toEqual([]);
  });

  it("switches variant in place, never by replace", async () => {
    const olds = { ...base, claimMatch: { issuer: "https://i.example", subject: "s" } };
    const r = await identity.diff("id", olds, { ...base, servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" });
    expect(r.replaces).toEqual([]);
  });

  it("refuses the names 0.x used, naming their published form", async () => {
    const r = await identity.check(
      {},
      {
        ...base,
        static: {
          issuer: "https://ci.internal",
          subject: "d",
          issuerKeys: JWKS,
          expiration: "2027-01-01T00:00:00Z",
        },
      },
    );
    expect(r.failures).toEqual([
      {
        property: "static",
        reason: expect.stringMatching(
          /^identity static was renamed staticKeys, the published API's name \(its expiration is now expirationTime, optional\): see "Migrating from 0\.x" in docs\/migrating\.md/,
        ),
      },
    ]);
    const aws = await identity.check(
      {},
      {
        ...base,
        awsIdentity: { awsAccount: "123456789012", awsArn: "arn:aws:iam::1:role/ci", awsUserIdPattern: ".*" },
      },
    );
    expect(aws.failures?.map((f) => f.reason.split(":")[0])).toEqual([
      "identity awsIdentity.awsArn was renamed awsIdentity.arn, the published API's name",
      "identity awsIdentity.awsUserIdPattern was renamed awsIdentity.userIdPattern, the published API's name",
    ]);
    const old = await identity.check({}, { ...base, servicePrincipal: "INGESTER" });
    expect(old.failures?.[0]?.reason).toContain(
      "identity servicePrincipal is now written SERVICE_PRINCIPAL_INGESTER, the published enum name",
    );
    const gone = await identity.check({}, { ...base, servicePrincipal: "REGISTRY" });
    expect(gone.failures?.[0]?.reason).toContain(
      "identity servicePrincipal is not a published service principal; must be one of SERVICE_PRINCIPAL_COSIGNED, SERVICE_PRINCIPAL_INGESTER,",
    );
  });

  it("refuses static keys with two audiences, naming the field and the rule", async () => {
    const r = await identity.check(
      {},
      {
        ...base,
        staticKeys: { issuer: "https://ci.internal", subject: "d", issuerKeys: JWKS, audiences: ["a", "b"] },
      },
    );
    expect(r.failures?.map((f) => f.reason.replace(/ \(got .*\)$/, ""))).toEqual([
      "identity staticKeys.audiences takes at most one audience (the service supports a single one for now)",
    ]);
  });

  it("sees no change in the keys' expiration the service chose while the program leaves it out", async () => {
    const keys = { issuer: "https://ci.internal", subject: "d", issuerKeys: JWKS };
    const olds = { ...base, staticKeys: { ...keys, expirationTime: "2027-11-25T13:00:00.000Z" } };
    expect((await identity.diff("id", olds, { ...base, staticKeys: keys })).changes).toBe(false);
    const set = { ...base, staticKeys: { ...keys, expirationTime: "2027-06-01T00:00:00Z" } };
    expect((await identity.diff("id", olds, set)).changes).not.toBe(false);
  });
});

describe("IdentityProvider check", () => {
  const idp = makeProvider(identityProviderKind, noClient);

  it("refuses a plain-http issuer and a missing client secret without echoing any value", async () => {
    const r = await idp.check(
      {},
      {
        parentUid: G,
        name: "sso",
        defaultRoleUid: ROLE,
        oidc: { issuer: "http://login.example.com", clientId: "c" },
      },
    );
    expect(r.failures?.map((f) => f.property).sort()).toEqual(["oidc.clientSecret", "oidc.issuer"]);
  });
});

describe("IdentityProvider OIDC client kinds (issue 38)", () => {
  const idp = makeProvider(identityProviderKind, noClient);
  const base = { parentUid: G, name: "sso", defaultRoleUid: ROLE };
  const issuer = "https://login.example.com";

  it("declares a public PKCE-only client: no secret, pkceEnabled true", async () => {
    const r = await idp.check({}, { ...base, oidc: { issuer, clientId: "c", pkceEnabled: true } });
    expect(r.failures).toEqual([]);
  });

  it("needs a client secret or PKCE: check names oidc.clientSecret and the rule", async () => {
    for (const oidc of [
      { issuer, clientId: "c" },
      { issuer, clientId: "c", clientSecret: "", pkceEnabled: false },
    ]) {
      const r = await idp.check({}, { ...base, oidc });
      expect(r.failures).toEqual([
        {
          property: "oidc.clientSecret",
          reason: expect.stringMatching(
            /oidc\.clientSecret is required unless pkceEnabled is true: at least one of clientSecret or pkceEnabled must be set/,
          ),
        },
      ]);
    }
  });

  it("refuses a correlation rule the published enum lacks, listing the names", async () => {
    const r = await idp.check(
      {},
      { ...base, oidc: { issuer, clientId: "c", clientSecret: "s", correlationRule: "EMAIL" } },
    );
    expect(r.failures?.map((f) => f.property)).toEqual(["oidc.correlationRule"]);
    expect(r.failures?.[0]?.reason).toMatch(/CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID/);
  });

  it("replaces on a correlation rule change, updates in place on groupsClaim or PKCE, and sees unset as SUB_EQUALS_EXTERNAL_ID", async () => {
    const olds = { ...base, oidc: { issuer, clientId: "c", clientSecret: "s" } };
    const to = (more: Record<string, unknown>) => ({ ...base, oidc: { ...olds.oidc, ...more } });
    const oid = await idp.diff(
      "id",
      olds,
      to({ correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" }),
    );
    expect(oid.replaces).toEqual(["oidc"]);
    // Same group, same name (unique among siblings): the old one goes first.
    expect(oid.deleteBeforeReplace).toBe(true);
    const renamed = await idp.diff("id", olds, {
      ...to({ correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" }),
      name: "sso-entra",
    });
    expect([renamed.replaces, renamed.deleteBeforeReplace]).toEqual([["oidc"], false]);
    expect(
      await idp.diff("id", olds, to({ correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" })),
    ).toEqual({ changes: false });
    expect((await idp.diff("id", olds, to({ groupsClaim: "groups" }))).replaces).toEqual([]);
    expect((await idp.diff("id", olds, to({ pkceEnabled: true }))).replaces).toEqual([]);
    expect(await idp.diff("id", olds, to({ pkceEnabled: false, groupsClaim: "" }))).toEqual({
      changes: false,
    });
  });
});

describe("IdentityProvider defaultRoleUid", () => {
  const idp = makeProvider(identityProviderKind, noClient);

  it("is required (the published message's default_role is REQUIRED): check names the field and the rule", async () => {
    const r = await idp.check(
      {},
      {
        parentUid: G,
        name: "sso",
        oidc: { issuer: "https://login.example.com", clientId: "c", clientSecret: "s" },
      },
    );
    expect(r.failures).toEqual([
      {
        property: "defaultRoleUid",
        reason: expect.stringMatching(
          /defaultRoleUid is required: every identity provider needs the uid of the role its users get at their first login/,
        ),
      },
    ]);
  });
});

describe("GroupInvite check and diff", () => {
  const invite = makeProvider(groupInviteKind, noClient);
  const base = { groupUid: G, roleUid: ROLE };

  it("requires ttl, refusing a bad duration at check naming ttl; the deprecated expiration stands in for it", async () => {
    expect((await invite.check({}, base)).failures).toEqual([
      {
        property: "ttl",
        reason: 'group invite ttl is required: how long the invite stays valid, such as "168h"',
      },
    ]);
    const both = await invite.check({}, { ...base, ttl: "1h", expiration: "2030-01-01T00:00:00Z" });
    expect(both.failures?.[0]?.property).toBe("ttl");
    for (const bad of ["1 week", "7d", "-1h", "0s"]) {
      expect((await invite.check({}, { ...base, ttl: bad })).failures, bad).toEqual([
        {
          property: "ttl",
          reason: expect.stringContaining(
            'ttl must be a positive duration in hours, minutes and seconds, such as "168h"',
          ),
        },
      ]);
    }
    for (const good of ["168h", "604800s", "1h30m"])
      expect((await invite.check({}, { ...base, ttl: good })).failures, good).toEqual([]);
    expect((await invite.check({}, { ...base, expiration: "2030-01-01T00:00:00Z" })).failures).toEqual([]);
  });

  it("reads friendly durations and protojson's", () => {
    expect(durationMs("168h")).toBe(168 * 3600_000);
    expect(durationMs("604800s")).toBe(168 * 3600_000);
    expect(durationMs("1h30m")).toBe(90 * 60_000);
    expect(durationMs("90s")).toBe(90_000);
    expect(durationMs("0h")).toBeUndefined();
    expect(durationMs("")).toBeUndefined();
  });

  it("replaces on every change; the same ttl written another way is no change", async () => {
    const olds = { ...base, ttl: "24h", code: "c", uid: "x", expirationTime: "2030-01-01T00:00:00Z" };
    expect((await invite.diff("id", olds, { ...base, ttl: "24h" })).changes).toBe(false);
    expect((await invite.diff("id", olds, { ...base, ttl: "86400s" })).changes).toBe(false);
    expect((await invite.diff("id", olds, { ...base, ttl: "48h" })).replaces).toEqual(["ttl"]);
    expect((await invite.diff("id", olds, { ...base, ttl: "24h", singleUse: true })).replaces).toEqual([
      "singleUse",
    ]);
    // From ttl to the deprecated expiration: a replace (the ttl went).
    expect((await invite.diff("id", olds, { ...base, expiration: "2030-01-01T00:00:00Z" })).replaces).toEqual(
      ["ttl"],
    );
    expect(
      (await invite.diff("id", olds, { ...base, roleUid: "fedcba9876543210", ttl: "24h" })).replaces,
    ).toEqual(["roleUid"]);
    // Imported: the state has no ttl (input only in the API), so the declared one is taken as it.
    const imported = { ...base, uid: "x", expirationTime: "2030-01-01T00:00:00Z" };
    expect((await invite.diff("id", imported, { ...base, ttl: "24h" })).changes).toBe(false);
  });
});

describe("AccountAssociations check", () => {
  const assoc = makeProvider(accountAssociationsKind, noClient);

  it("needs a name only (every provider block is optional, as published), and checks each block's rules", async () => {
    expect((await assoc.check({}, { groupUid: G, name: "a" })).failures).toEqual([]);
    expect((await assoc.check({}, { groupUid: G, name: "a", amazon: { account: "42" } })).failures).toEqual([
      expect.objectContaining({
        property: "amazon.account",
        reason: expect.stringContaining("12-digit AWS account id"),
      }),
    ]);
  });

  it("takes github.appInstallations keyed by app id, and names the 0.x installations shape", async () => {
    const github = {
      appInstallations: { "123": { installations: [{ installationId: "42", name: "acme" }] } },
    };
    expect((await assoc.check({}, { groupUid: G, name: "a", github })).failures).toEqual([]);
    const old = await assoc.check({}, { groupUid: G, name: "a", github: { installations: [{ id: 42 }] } });
    expect(old.failures).toEqual([
      {
        property: "github.installations",
        reason: expect.stringContaining(
          "is the 0.x shape: write github.appInstallations, keyed by GitHub App id",
        ),
      },
    ]);
    const badId = await assoc.check(
      {},
      {
        groupUid: G,
        name: "a",
        github: { appInstallations: { "123": { installations: [{ installationId: "x" }] } } },
      },
    );
    expect(badId.failures?.[0]?.property).toBe("github.appInstallations.123.installations.0.installationId");
  });
});
