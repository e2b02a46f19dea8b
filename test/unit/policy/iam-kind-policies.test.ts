import { describe, expect, it } from "vitest";
import {
  customRoleLeastPrivilege,
  identityMatchTooBroad,
  idpIssuerHttps,
  inviteExpirationBounded,
  pullTokenTtlBounded,
} from "../../../policy/policies/index.js";
import { TYPE } from "../../../policy/type-tokens.js";
import { violations, withUnknown } from "./run-policy.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";
const GHA = "https://token.actions.githubusercontent.com";

describe("identity-match-too-broad", () => {
  const check = (claimMatch: object) => violations(identityMatchTooBroad, TYPE.Identity, { claimMatch });

  it("refuses subject, issuer and claim patterns that match anything", async () => {
    for (const pattern of [".*", ".+", "(.*)", "[\\s\\S]*", " "])
      expect(await check({ issuer: "https://i.example", subjectPattern: pattern })).toEqual([
        expect.stringContaining(`claimMatch.subjectPattern ${JSON.stringify(pattern)} matches any value`),
      ]);
    expect(await check({ issuerPattern: ".*", subject: "s" })).toEqual([
      expect.stringContaining("claimMatch.issuerPattern"),
    ]);
    expect(await check({ issuer: "https://i.example", subject: "s", claimPatterns: { ref: ".+" } })).toEqual([
      expect.stringContaining("claimMatch.claimPatterns.ref"),
    ]);
  });

  // Regression (issue 25 item 1): the pack probed patterns with JavaScript's engine, where `(?i).*`
  // does not compile, so it passed as narrow although the service (RE2) matches anything with it.
  it("refuses (?i).* and friends, read with RE2 as the service reads them", async () => {
    for (const pattern of ["(?i).*", "(?s).+", "(?U).*"])
      expect(await check({ issuer: "https://i.example", subjectPattern: pattern })).toEqual([
        expect.stringContaining(`claimMatch.subjectPattern ${JSON.stringify(pattern)} matches any value`),
      ]);
  });

  it("reports a pattern the service refuses (look-around), naming the field and the character", async () => {
    expect(
      await check({
        issuer: "https://i.example",
        subject: "s",
        claimPatterns: { ref: "refs/heads/(?!tmp).*" },
      }),
    ).toEqual([
      expect.stringMatching(
        /^The identity's claimMatch\.claimPatterns\.ref is not a valid RE2 pattern: invalid or unsupported Perl syntax at character 12 .*the service refuses it/,
      ),
    ]);
  });

  it("refuses a GitHub Actions subject pattern that spans repositories", async () => {
    for (const subjectPattern of [
      "repo:acme/.*:ref:refs/heads/main",
      "repo:acme/(a|b):ref:refs/heads/main",
      ".*:ref:refs/heads/main",
      "repo:[a-z]+/app:.*",
    ])
      expect(await check({ issuer: GHA, subjectPattern })).toEqual([
        expect.stringContaining("spans GitHub repositories"),
      ]);
  });

  it("accepts one repository's branches, environments and exact subjects", async () => {
    for (const claimMatch of [
      { issuer: GHA, subjectPattern: "repo:acme/app:ref:refs/heads/.*" },
      { issuer: GHA, subjectPattern: "repo:acme/my\\.app:environment:(staging|production)" },
      { issuer: GHA, subject: "repo:acme/app:ref:refs/heads/main" },
      {
        issuer: "https://gitlab.example.com",
        subjectPattern: "project_path:acme/app:ref_type:branch:ref:.*",
      },
    ])
      expect(await check(claimMatch)).toEqual([]);
  });
});

describe("idp-issuer-https", () => {
  it("refuses an identity provider whose issuer is not https", async () => {
    expect(
      await violations(idpIssuerHttps, TYPE.IdentityProvider, {
        oidc: { issuer: "http://login.example.com" },
      }),
    ).toEqual([expect.stringContaining('oidc.issuer "http://login.example.com" is not an https URL')]);
    expect(
      await violations(idpIssuerHttps, TYPE.IdentityProvider, {
        oidc: { issuer: "https://login.example.com" },
      }),
    ).toEqual([]);
  });
});

describe("invite-expiration-bounded", () => {
  it("flags a ttl or an expiration beyond the configured days, 7 by default", async () => {
    expect(await violations(inviteExpirationBounded, TYPE.GroupInvite, { ttl: "168h" })).toEqual([]);
    expect(await violations(inviteExpirationBounded, TYPE.GroupInvite, { ttl: "169h" }, {}, "dev")).toEqual([
      'The invite "dev" stays valid for 169 hours, more than 7 days: use a shorter ttl (at most "168h").',
    ]);
    expect(
      await violations(inviteExpirationBounded, TYPE.GroupInvite, { ttl: "72h" }, { maxDays: 2 }),
    ).toHaveLength(1);
    // protojson's Duration, as the published API writes a ttl, and fractional hours.
    expect(await violations(inviteExpirationBounded, TYPE.GroupInvite, { ttl: "604800s" })).toEqual([]);
    expect(await violations(inviteExpirationBounded, TYPE.GroupInvite, { ttl: "604801s" })).toHaveLength(1);
    expect(await violations(inviteExpirationBounded, TYPE.GroupInvite, { ttl: "168.5h" })).toHaveLength(1);
    // The deprecated expiration of 0.x programs still counts.
    const inTenDays = new Date(Date.now() + 10 * 86_400_000).toISOString();
    expect(
      await violations(inviteExpirationBounded, TYPE.GroupInvite, { expiration: inTenDays }),
    ).toHaveLength(1);
  });
});

describe("pull-token-ttl-bounded", () => {
  it("flags a pull token living longer than the configured days, 90 by default; no ttl is the 30-day default", async () => {
    expect(await violations(pullTokenTtlBounded, TYPE.PullToken, {})).toEqual([]);
    expect(await violations(pullTokenTtlBounded, TYPE.PullToken, { ttl: "2160h" })).toEqual([]);
    expect(await violations(pullTokenTtlBounded, TYPE.PullToken, { ttl: "8760h" }, {}, "mirror")).toEqual([
      'The pull token "mirror" stays valid for 8760 hours, more than 90 days: use a shorter ttl (at most "2160h") and rotateBefore to replace it in time.',
    ]);
    expect(await violations(pullTokenTtlBounded, TYPE.PullToken, {}, { maxDays: 7 })).toHaveLength(1);
    expect(await violations(pullTokenTtlBounded, TYPE.PullToken, { ttl: "31536000s" })).toHaveLength(1);
  });
});

describe("custom-role-least-privilege", () => {
  it("flags a role below the root that grants role bindings or role management, not one at the root", async () => {
    const below = {
      parentUid: `${ORG}/0123456789abcdef`,
      capabilities: ["groups.list", "role_bindings.create", "roles.update"],
    };
    expect(await violations(customRoleLeastPrivilege, TYPE.Role, below, {}, "team-admin")).toEqual([
      expect.stringContaining(
        'The role "team-admin" grants role_bindings.create, roles.update below the root',
      ),
    ]);
    expect(await violations(customRoleLeastPrivilege, TYPE.Role, { ...below, parentUid: ORG })).toEqual([]);
    expect(
      await violations(customRoleLeastPrivilege, TYPE.Role, {
        ...below,
        capabilities: ["groups.list", "role_bindings.list"],
      }),
    ).toEqual([]);
  });

  // Regression: a role in a group the same preview creates (its uid unknown) made Pulumi report
  // "can't run policy 'custom-role-least-privilege' … during preview" instead of checking it.
  it("counts a role whose parent group is new in this preview (uid unknown) as below the root", async () => {
    const props = withUnknown({ parentUid: "", capabilities: ["roles.create"] }, "parentUid");
    expect(await violations(customRoleLeastPrivilege, TYPE.Role, props, {}, "team-admin")).toEqual([
      expect.stringContaining('The role "team-admin" grants roles.create below the root'),
    ]);
  });
});
