import type { ResourceValidationPolicy } from "@pulumi/policy";
import { matchesAnything, spansRepositories } from "pulumi-irv/review";
import { describePatternProblem } from "pulumi-irv/sdk";
import { isType } from "../type-tokens.js";

const GITHUB_ACTIONS = "https://token.actions.githubusercontent.com";

/**
 * `identity-match-too-broad` (mandatory): an identity whose `claimMatch` patterns match anything
 * (`.*`, `.+`, `(?i).*`, empty), or whose GitHub Actions subject pattern spans repositories, lets
 * tokens of strangers assume it. A pattern that is not RE2 (the service's syntax: look-around,
 * back-references) is reported too, naming the field and the character where it fails: state
 * written before check() refused them may hold one.
 *
 * @example
 * new PolicyPack("irv", { policies: [identityMatchTooBroad] });
 */
export const identityMatchTooBroad: ResourceValidationPolicy = {
  name: "identity-match-too-broad",
  description:
    "Identity claimMatch patterns do not match any token, and GitHub Actions subject patterns name one repository.",
  enforcementLevel: "mandatory",
  validateResource: (args, reportViolation) => {
    if (!isType(args.type, "Identity")) return;
    const m = args.props.claimMatch;
    if (typeof m !== "object" || m === null) return;
    const patterns: [string, unknown][] = [
      ["issuerPattern", m.issuerPattern],
      ["subjectPattern", m.subjectPattern],
      ["audiencePattern", m.audiencePattern],
      ...Object.entries(m.claimPatterns ?? {}).map(([k, v]): [string, unknown] => [`claimPatterns.${k}`, v]),
    ];
    for (const [field, source] of patterns) {
      const problem = typeof source === "string" ? describePatternProblem(source) : undefined;
      if (problem !== undefined)
        reportViolation(
          `The identity's claimMatch.${field} ${problem}: the service refuses it. Rewrite it in RE2 syntax.`,
        );
      else if (typeof source === "string" && matchesAnything(source))
        reportViolation(
          `The identity's claimMatch.${field} ${JSON.stringify(source)} matches any value: anyone who can mint such a token could assume it. Name the exact value or a narrow pattern.`,
        );
    }
    const subject = m.subjectPattern;
    if (
      m.issuer === GITHUB_ACTIONS &&
      typeof subject === "string" &&
      !matchesAnything(subject) &&
      spansRepositories(subject)
    )
      reportViolation(
        `The identity's claimMatch.subjectPattern ${JSON.stringify(subject)} spans GitHub repositories: workflows of other repositories could assume it. Start it with the literal "repo:<owner>/<repo>:".`,
      );
  },
};
