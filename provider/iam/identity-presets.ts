import { isLoopbackHost, quoteMeta } from "../../sdk/index.js";

/**
 * A `claimMatch` an identity preset makes: the exact subject when every part is literal, else an
 * anchored subject pattern whose literal parts are escaped, with exact claims narrowing it.
 *
 * @example
 * const m: ClaimMatchPreset = { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" };
 */
export interface ClaimMatchPreset {
  /** The CI system's token issuer. */
  issuer: string;
  /** The exact `sub` of the tokens, when it is fully known. */
  subject?: string;
  /** An anchored RE2 pattern of `sub`, its literal parts escaped. */
  subjectPattern?: string;
  /** Claims the tokens must carry with exactly these values. */
  claims?: Record<string, string>;
}

/** GitHub Actions' token issuer. */
export const GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com";
/** GitLab.com's token issuer. */
export const GITLAB_ISSUER = "https://gitlab.com";

const SEGMENT = /^[A-Za-z0-9_.-]+$/;
// What no preset accepts inside a literal: anything a reader could take for a wildcard, and
// whitespace or ':' (the subject's separator: "main:environment:x" would forge another subject).
const NOT_LITERAL = /[\s:*?[\]{}()|^$\\]/;

function issuerOf(issuer: string | undefined, fallback: string): string {
  if (issuer === undefined) return fallback;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`issuer must be a URL (got ${JSON.stringify(issuer)})`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname)))
    throw new Error("issuer must be an https URL (http only on a loopback address, for the emulator)");
  return issuer;
}

// A repository is `owner/name`; a GitLab project may sit in nested groups (`group/sub/project`).
function path(what: "repository" | "project", value: unknown, example: string): string {
  const segments = typeof value === "string" ? value.split("/") : [];
  if (
    segments.length < 2 ||
    (what === "repository" && segments.length !== 2) ||
    !segments.every((s) => SEGMENT.test(s) && s !== "." && s !== "..")
  )
    throw new Error(
      `${what} must name exactly one ${what === "project" ? "project" : "repository"}, such as ${JSON.stringify(example)}: letters, digits, '-', '_' and '.' between slashes; a wildcard or pattern would let other ${what === "project" ? "projects" : "repositories"} in (got ${JSON.stringify(value)})`,
    );
  return value as string;
}

function literal(what: string, value: unknown): string {
  if (typeof value !== "string" || value === "" || NOT_LITERAL.test(value))
    throw new Error(
      `${what} must be one literal value, without wildcards, ':' or spaces (got ${JSON.stringify(value)})`,
    );
  return value;
}

function exactlyOneOf(args: Record<string, unknown>, keys: readonly string[]): string {
  const given = keys.filter((k) => args[k] !== undefined && args[k] !== false);
  if (given.length !== 1)
    throw new Error(
      `exactly one of ${keys.join(", ")} is required${given.length ? ` (got ${given.join(" and ")})` : ""}`,
    );
  return given[0] as string;
}

/**
 * Arguments of the GitHub Actions preset: the repository and exactly one of `ref`, `environment`,
 * `workflowRef` or `pullRequest`.
 *
 * @example
 * const args: GithubActionsClaimsArgs = { repository: "acme/app", environment: "production" };
 */
export interface GithubActionsClaimsArgs {
  /** `owner/name`: one repository, literally. */
  repository: string;
  /** A branch or tag ref, `refs/heads/main` or `refs/tags/v1.2.3`. */
  ref?: string;
  /** A deployment environment's name. */
  environment?: string;
  /** A reusable workflow, `owner/repo/.github/workflows/deploy.yml@refs/heads/main` (its `job_workflow_ref`). */
  workflowRef?: string;
  /** `true`: the repository's pull request workflows. */
  pullRequest?: boolean;
  /** The issuer, for GitHub Enterprise Server (default GitHub.com's). */
  issuer?: string;
}

/**
 * The exact `claimMatch` of GitHub Actions tokens of one repository and one ref, environment,
 * reusable workflow or its pull requests.
 *
 * @example
 * githubActionsClaimMatch({ repository: "acme/app", ref: "refs/heads/main" });
 * // { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" }
 */
export function githubActionsClaimMatch(args: GithubActionsClaimsArgs): ClaimMatchPreset {
  const issuer = issuerOf(args.issuer, GITHUB_ACTIONS_ISSUER);
  const repository = path("repository", args.repository, "acme/app");
  const which = exactlyOneOf({ ...args }, ["ref", "environment", "workflowRef", "pullRequest"]);
  const repo = `repo:${repository}`;
  switch (which) {
    case "ref":
      return { issuer, subject: `${repo}:ref:${literal("ref", args.ref)}` };
    case "environment":
      return { issuer, subject: `${repo}:environment:${literal("environment", args.environment)}` };
    case "pullRequest":
      if (args.pullRequest !== true) throw new Error("pullRequest must be true when given");
      return { issuer, subject: `${repo}:pull_request` };
    default: {
      // The subject of a job calling a reusable workflow is the caller's: any ref of this
      // repository, the workflow pinned by the exact job_workflow_ref claim.
      const workflowRef = args.workflowRef ?? "";
      if (!/^[^\s@]+\/\.github\/workflows\/[^\s@]+@\S+$/.test(workflowRef) || /[*?]/.test(workflowRef))
        throw new Error(
          `workflowRef must be one workflow at one ref, "owner/repo/.github/workflows/<file>@<ref>" (got ${JSON.stringify(args.workflowRef)})`,
        );
      return {
        issuer,
        subjectPattern: `repo:${quoteMeta(repository)}:.+`,
        claims: { repository, job_workflow_ref: workflowRef },
      };
    }
  }
}

/**
 * Arguments of the GitLab CI preset: the project and either `ref` with `refType`, or `environment`.
 *
 * @example
 * const args: GitlabCiClaimsArgs = { project: "acme/platform/app", ref: "main", refType: "branch" };
 */
export interface GitlabCiClaimsArgs {
  /** `group/…/project`: one project, literally. */
  project: string;
  /** A branch or tag name (with `refType`). */
  ref?: string;
  /** `branch` or `tag` (with `ref`). */
  refType?: string;
  /** A deployment environment's name. */
  environment?: string;
  /** The issuer, for a self-managed GitLab (default GitLab.com's). */
  issuer?: string;
}

/**
 * The exact `claimMatch` of GitLab CI ID tokens of one project and one ref or environment.
 *
 * @example
 * gitlabCiClaimMatch({ project: "acme/app", ref: "main", refType: "branch" });
 * // { issuer: "https://gitlab.com", subject: "project_path:acme/app:ref_type:branch:ref:main" }
 */
export function gitlabCiClaimMatch(args: GitlabCiClaimsArgs): ClaimMatchPreset {
  const issuer = issuerOf(args.issuer, GITLAB_ISSUER);
  const project = path("project", args.project, "acme/app");
  const which = exactlyOneOf({ ref: args.ref, environment: args.environment }, ["ref", "environment"]);
  if (which === "ref") {
    if (args.refType !== "branch" && args.refType !== "tag")
      throw new Error(`refType must be "branch" or "tag" with ref (got ${JSON.stringify(args.refType)})`);
    return {
      issuer,
      subject: `project_path:${project}:ref_type:${args.refType}:ref:${literal("ref", args.ref)}`,
    };
  }
  if (args.refType !== undefined) throw new Error("refType goes with ref, not with environment");
  return {
    issuer,
    subjectPattern: `project_path:${quoteMeta(project)}:ref_type:(branch|tag):ref:.+`,
    claims: { project_path: project, environment: literal("environment", args.environment) },
  };
}

/**
 * An `awsIdentity` an AWS preset makes.
 *
 * @example
 * const a: AwsIdentityPreset = { awsAccount: "123456789012", arnPattern: "arn:aws:sts::123456789012:assumed-role/deploy/.+", userIdPattern: "AROA[0-9A-Z]+:.+" };
 */
export interface AwsIdentityPreset {
  awsAccount: string;
  /** The role's assumed-role sessions: the role name escaped, any session name. */
  arnPattern: string;
  /** A role session's user id: the role's unique id (`AROA…`) and the session name. */
  userIdPattern: string;
}

/**
 * Arguments of the AWS role preset.
 *
 * @example
 * const args: AwsRoleIdentityArgs = { account: "123456789012", role: "deploy" };
 */
export interface AwsRoleIdentityArgs {
  /** The 12-digit account id. */
  account: string;
  /** The IAM role's name (no path, no wildcard). */
  role: string;
}

/**
 * The `awsIdentity` of the sessions of one IAM role in one account.
 *
 * @example
 * awsRoleIdentityMatch({ account: "123456789012", role: "deploy" }).arnPattern;
 * // "arn:aws:sts::123456789012:assumed-role/deploy/.+"
 */
export function awsRoleIdentityMatch(args: AwsRoleIdentityArgs): AwsIdentityPreset {
  if (typeof args.account !== "string" || !/^\d{12}$/.test(args.account))
    throw new Error(`account must be a 12-digit AWS account id (got ${JSON.stringify(args.account)})`);
  if (typeof args.role !== "string" || !/^[\w+=,.@-]{1,64}$/.test(args.role))
    throw new Error(
      `role must be one IAM role name: 1 to 64 letters, digits and + = , . @ _ -, no path or wildcard (got ${JSON.stringify(args.role)})`,
    );
  return {
    awsAccount: args.account,
    arnPattern: `arn:aws:sts::${args.account}:assumed-role/${quoteMeta(args.role)}/.+`,
    userIdPattern: "AROA[0-9A-Z]+:.+",
  };
}
