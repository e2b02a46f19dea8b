// Identity patterns with the service's semantics (issue 25 item 1): RE2 syntax as Go parses it,
// matched in time linear in the value. Regression: they were JavaScript `u` regexes, so `(?i)`,
// `\pL` and `(?P<name>…)` were refused, look-around and back-references accepted, and a crafted
// pattern/value pair took exponential time (ReDoS) in the emulator's STS.
import { describe, expect, it } from "vitest";
import {
  compilePattern,
  describePatternProblem,
  matchesPattern,
  Pattern,
  patternProblem,
} from "../../../sdk/index.js";

describe("RE2 patterns", () => {
  it("accepts what Go's regexp accepts: (?i), \\pL, (?P<name>…)", () => {
    expect(matchesPattern("(?i)repo:acme/app:.*", "REPO:Acme/App:ref:main")).toBe(true);
    expect(matchesPattern("repo:\\pL+/app", "repo:ñandú/app")).toBe(true);
    expect(matchesPattern("repo:(?P<owner>[a-z]+)/app", "repo:acme/app")).toBe(true);
    for (const source of ["(?i)repo:acme/.*", "\\pL+", "(?P<env>staging|production)"])
      expect(Pattern.safeParse(source).success).toBe(true);
  });

  it("refuses look-around and back-references, naming RE2's reason and the character", () => {
    expect(patternProblem("repo:acme/(?=app)")).toEqual({
      reason: "invalid or unsupported Perl syntax",
      position: 11,
    });
    expect(patternProblem("(a)\\1")).toEqual({ reason: "invalid escape sequence", position: 4 });
    expect(describePatternProblem("repo:(")).toBe(
      "is not a valid RE2 pattern: missing closing ) at the end (the service's patterns are Go regular expressions: no look-around or back-references)",
    );
    const parsed = Pattern.safeParse("a(?<!b)c");
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^is not a valid RE2 pattern: .* at character 2 /);
  });

  it("is anchored: the whole value must match", () => {
    expect(matchesPattern("acme", "xacmex")).toBe(false);
    expect(matchesPattern("a|b", "ab")).toBe(false);
    expect(compilePattern("repo:acme/.*").matches("repo:acme/app")).toBe(true);
  });

  it("answers a catastrophic pattern/value pair (exponential for a backtracking engine) by RE2's linear guarantee", () => {
    // (a+)+b against a run of a's backtracks 2^n ways in JavaScript: with 100 000 a's it would
    // never end. RE2 visits each character once per state; bench/patterns.ts times it.
    const value = "a".repeat(100_000);
    const answers = ["(a+)+b", "(a|aa)+b", "(a*)*b", "(.*a){20}b"].map((p) => matchesPattern(p, value));
    expect(answers).toEqual([false, false, false, false]);
  });

  it("matches nothing with a pattern that does not compile, and compilePattern throws naming why", () => {
    expect(matchesPattern("(", "(")).toBe(false);
    expect(() => compilePattern("a(?=b)")).toThrow(
      /not a valid RE2 pattern: invalid or unsupported Perl syntax at character 2/,
    );
  });
});
