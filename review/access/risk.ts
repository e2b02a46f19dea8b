import { describePatternProblem, matchesPattern } from "../../sdk/index.js";
/**
 * Why a gained access is risky.
 * - `owner-equivalent`: the identity now holds every capability of `owner` in the subtree;
 * - `escalation`: a capability that hands out access (`role_bindings.create`/`update`, writes of
 *   `roles` and `identity_providers`, `identity.update`);
 * - `root`: the subtree is the whole organization;
 * - `broad-matcher`: the identity is matched by an issuer alone, a pattern spanning repositories or
 *   one matching anything;
 * - `new-identity`: the identity is new (or not known at preview);
 * - `lock-out`: no owner-equivalent binding is left at the root.
 *
 * @example
 * const risky: RiskClass[] = ["root", "escalation"];
 */
export type RiskClass =
  | "owner-equivalent"
  | "escalation"
  | "root"
  | "broad-matcher"
  | "new-identity"
  | "lock-out";

/**
 * Every risk class, in the order reports list them.
 *
 * @example
 * RISK_CLASSES.includes("root"); // true
 */
export const RISK_CLASSES: readonly RiskClass[] = [
  "lock-out",
  "owner-equivalent",
  "escalation",
  "root",
  "broad-matcher",
  "new-identity",
];

// Reading roles or identity providers hands out nothing: only their writes count.
const ESCALATION =
  /^(role_bindings\.(create|update)|(roles|identity_providers)\.(create|update|delete)|identity\.update)$/;

/**
 * Whether a capability lets its holder hand out access (escalation-capable).
 *
 * @example
 * isEscalationCapability("role_bindings.create"); // true
 * isEscalationCapability("groups.delete"); // false
 */
export function isEscalationCapability(capability: string): boolean {
  return ESCALATION.test(capability);
}

// Strings nothing sensible has in common: a pattern that matches all of them matches anything.
const PROBES = ["x", "repo:evil/evil:ref:refs/heads/main", "https://attacker.example", "0 / : @ \u00e9"];

/**
 * Whether an anchored pattern matches any value (empty, `.*`, `.+`, `(?i).*`, …). Patterns are RE2
 * (Go) regular expressions, matched as the service matches them: with JavaScript's engine `(?i).*`
 * did not compile and so passed as narrow.
 *
 * @example
 * matchesAnything(".*"); // true
 */
export function matchesAnything(source: string): boolean {
  return (
    source.trim() === "" ||
    (describePatternProblem(source) === undefined && PROBES.every((p) => matchesPattern(source, p)))
  );
}

/**
 * Whether a GitHub Actions subject pattern (`repo:<owner>/<repo>:…`) lets in workflows of other
 * repositories: its owner/repo part is not literal text (escaped dots and dashes allowed).
 *
 * @example
 * spansRepositories("repo:acme/.*"); // true
 * spansRepositories("repo:acme/app:ref:refs/heads/main"); // false
 */
export function spansRepositories(source: string): boolean {
  const m = /^\^?repo:((?:\\.|[^:\\])*):/.exec(source);
  if (!m) return true;
  const repo = (m[1] ?? "").replace(/\\[.\-_]/g, "");
  return /[\\^$.*+?()[\]{}|]/.test(repo) || !repo.includes("/");
}

/**
 * Whether an identity's matcher admits tokens beyond one workload: an issuer pattern, an issuer
 * without a subject, a subject pattern matching anything, or a `repo:` subject pattern spanning
 * repositories. Variants other than `claimMatch` (AWS, static keys, service principals) are not
 * judged here.
 *
 * @example
 * isBroadMatcher({ issuer: "https://token.actions.githubusercontent.com", subjectPattern: "repo:acme/.*" }); // true
 */
export function isBroadMatcher(matcher: Readonly<Record<string, string>> | undefined): boolean {
  if (matcher === undefined) return false;
  const { issuer, issuerPattern, subject, subjectPattern } = matcher;
  if (issuerPattern !== undefined) return true;
  if (issuer === undefined) return false;
  if (subject === undefined && subjectPattern === undefined) return true;
  if (subjectPattern === undefined) return false;
  return (
    matchesAnything(subjectPattern) ||
    (subjectPattern.replace(/^\^/, "").startsWith("repo:") && spansRepositories(subjectPattern))
  );
}
