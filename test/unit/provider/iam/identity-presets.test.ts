// The identity presets: table tests of what each makes (exact subjects, escaped literals, anchored
// patterns) and refuses (anything that would match more than one repository or project), proven
// with the sdk's RE2 matcher (the STS's), and accepted by identity-match-too-broad.
import { describe, expect, it } from "vitest";
import { identityMatchTooBroad } from "../../../../policy/policies/index.js";
import { TYPE } from "../../../../policy/type-tokens.js";
import type { ClaimMatchPreset } from "../../../../provider/iam/identity-presets.js";
import {
  awsRoleIdentityMatch,
  githubActionsClaimMatch,
  gitlabCiClaimMatch,
} from "../../../../provider/iam/identity-presets.js";
import { ClaimMatch, matchesPattern } from "../../../../sdk/index.js";
import { violations } from "../../policy/run-policy.js";

const GHA = "https://token.actions.githubusercontent.com";

// Whether a token with this subject and these claims would be let in (the STS's rule, sdk patterns).
function admits(m: ClaimMatchPreset, sub: string, claims: Record<string, string> = {}): boolean {
  const subjectOk = m.subject !== undefined ? m.subject === sub : matchesPattern(m.subjectPattern ?? "", sub);
  return subjectOk && Object.entries(m.claims ?? {}).every(([k, v]) => claims[k] === v);
}

describe("githubActionsClaims", () => {
  it.each([
    [
      { repository: "acme/app", ref: "refs/heads/main" },
      { issuer: GHA, subject: "repo:acme/app:ref:refs/heads/main" },
    ],
    [
      { repository: "acme/app", environment: "production" },
      { issuer: GHA, subject: "repo:acme/app:environment:production" },
    ],
    [
      { repository: "acme/app", pullRequest: true },
      { issuer: GHA, subject: "repo:acme/app:pull_request" },
    ],
    [
      { repository: "acme/a.b", workflowRef: "acme/ci/.github/workflows/deploy.yml@refs/heads/main" },
      {
        issuer: GHA,
        subjectPattern: "repo:acme/a\\.b:.+",
        claims: {
          repository: "acme/a.b",
          job_workflow_ref: "acme/ci/.github/workflows/deploy.yml@refs/heads/main",
        },
      },
    ],
  ])("%j makes %j", (args, expected) => {
    const m = githubActionsClaimMatch(args);
    expect(m).toEqual(expected);
    expect(ClaimMatch.safeParse(m).success).toBe(true);
  });

  it("escapes the repository: a.b never matches aXb, and patterns are anchored", () => {
    const m = githubActionsClaimMatch({
      repository: "acme/a.b",
      workflowRef: "acme/ci/.github/workflows/deploy.yml@refs/heads/main",
    });
    const claims = m.claims ?? {};
    expect(admits(m, "repo:acme/a.b:ref:refs/heads/main", claims)).toBe(true);
    expect(admits(m, "repo:acme/aXb:ref:refs/heads/main", claims)).toBe(false);
    // Anchored: no prefix or suffix of another repository's subject gets in.
    expect(admits(m, "xrepo:acme/a.b:ref:refs/heads/main", claims)).toBe(false);
    expect(admits(m, "repo:acme/a.bc:ref:refs/heads/main", claims)).toBe(false);
    expect(admits(m, "repo:acme/a.b:ref:refs/heads/main", { ...claims, repository: "acme/aXb" })).toBe(false);
    const exact = githubActionsClaimMatch({ repository: "acme/a.b", ref: "refs/heads/main" });
    expect(admits(exact, "repo:acme/aXb:ref:refs/heads/main")).toBe(false);
  });

  it.each([
    [{ repository: "acme/*", ref: "refs/heads/main" }, /repository must name exactly one repository/],
    [{ repository: "acme/.*", ref: "refs/heads/main" }, /repository must name exactly one repository/],
    [{ repository: "acme", ref: "refs/heads/main" }, /repository must name exactly one repository/],
    [{ repository: "acme/app/x", ref: "refs/heads/main" }, /repository must name exactly one repository/],
    [{ repository: "acme/app", ref: "refs/heads/*" }, /ref must be one literal value/],
    [{ repository: "acme/app", ref: "main:environment:prod" }, /ref must be one literal value/],
    [{ repository: "acme/app" }, /exactly one of ref, environment, workflowRef, pullRequest is required/],
    [{ repository: "acme/app", ref: "refs/heads/main", environment: "prod" }, /got ref and environment/],
    [
      { repository: "acme/app", workflowRef: "acme/ci/.github/workflows/*.yml@main" },
      /workflowRef must be one workflow/,
    ],
    [
      { repository: "acme/app", ref: "refs/heads/main", issuer: "http://example.com" },
      /issuer must be an https URL/,
    ],
  ])("refuses %j", (args, why) => {
    expect(() => githubActionsClaimMatch(args as never)).toThrow(why);
  });
});

describe("gitlabCiClaims", () => {
  it("makes the exact subject of a ref, and an escaped, anchored pattern with exact claims for an environment", () => {
    expect(gitlabCiClaimMatch({ project: "acme/platform/app", ref: "main", refType: "branch" })).toEqual({
      issuer: "https://gitlab.com",
      subject: "project_path:acme/platform/app:ref_type:branch:ref:main",
    });
    const env = gitlabCiClaimMatch({ project: "acme/a.b", environment: "production" });
    expect(env).toEqual({
      issuer: "https://gitlab.com",
      subjectPattern: "project_path:acme/a\\.b:ref_type:(branch|tag):ref:.+",
      claims: { project_path: "acme/a.b", environment: "production" },
    });
    const claims = env.claims ?? {};
    expect(admits(env, "project_path:acme/a.b:ref_type:branch:ref:main", claims)).toBe(true);
    expect(admits(env, "project_path:acme/aXb:ref_type:branch:ref:main", claims)).toBe(false);
    expect(admits(env, "project_path:acme/a.b/sub:ref_type:branch:ref:main", claims)).toBe(false);
  });

  it.each([
    [{ project: "acme/*", ref: "main", refType: "branch" }, /project must name exactly one project/],
    [{ project: "acme/app", ref: "main" }, /refType must be "branch" or "tag"/],
    [{ project: "acme/app", environment: "prod", refType: "tag" }, /refType goes with ref/],
    [{ project: "acme/app" }, /exactly one of ref, environment is required/],
  ])("refuses %j", (args, why) => {
    expect(() => gitlabCiClaimMatch(args as never)).toThrow(why);
  });
});

describe("awsRoleIdentity", () => {
  it("matches the sessions of one role, its name escaped", () => {
    const a = awsRoleIdentityMatch({ account: "123456789012", role: "deploy.prod" });
    expect(a).toEqual({
      awsAccount: "123456789012",
      arnPattern: "arn:aws:sts::123456789012:assumed-role/deploy\\.prod/.+",
      userIdPattern: "AROA[0-9A-Z]+:.+",
    });
    expect(matchesPattern(a.arnPattern, "arn:aws:sts::123456789012:assumed-role/deploy.prod/session-1")).toBe(
      true,
    );
    expect(matchesPattern(a.arnPattern, "arn:aws:sts::123456789012:assumed-role/deployXprod/session-1")).toBe(
      false,
    );
    expect(matchesPattern(a.arnPattern, "arn:aws:sts::210987654321:assumed-role/deploy.prod/s")).toBe(false);
  });

  it.each([
    [{ account: "1234", role: "deploy" }, /account must be a 12-digit AWS account id/],
    [{ account: "123456789012", role: "deploy*" }, /role must be one IAM role name/],
    [{ account: "123456789012", role: "path/deploy" }, /role must be one IAM role name/],
  ])("refuses %j", (args, why) => {
    expect(() => awsRoleIdentityMatch(args)).toThrow(why);
  });
});

describe("identity-match-too-broad accepts everything a preset makes", () => {
  const made: ClaimMatchPreset[] = [
    githubActionsClaimMatch({ repository: "acme/app", ref: "refs/heads/main" }),
    githubActionsClaimMatch({ repository: "acme/app", environment: "production" }),
    githubActionsClaimMatch({ repository: "acme/app", pullRequest: true }),
    githubActionsClaimMatch({
      repository: "acme/a.b-c_d",
      workflowRef: "acme/ci/.github/workflows/d.yml@refs/heads/main",
    }),
    gitlabCiClaimMatch({ project: "acme/app", ref: "v1", refType: "tag" }),
    gitlabCiClaimMatch({ project: "acme/a.b", environment: "production" }),
  ];
  it.each(made.map((m) => [m]))("%j", async (claimMatch) => {
    expect(await violations(identityMatchTooBroad, TYPE.Identity, { claimMatch })).toEqual([]);
  });
});
