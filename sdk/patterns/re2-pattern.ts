import { RE2JS, RE2JSSyntaxException } from "re2js";

// Identity patterns are Go regular expressions on the service (RE2 syntax and semantics). re2js is
// RE2/J's pure-JavaScript port: the same grammar (`(?i)`, `\pL`, `(?P<name>…)` accepted; look-around
// and back-references refused) and matching in time linear in the value, so a hostile pattern cannot
// stall the emulator's STS. Pure JavaScript because the policy pack and the dynamic provider load
// this without a compiler or a prebuilt binary (docs/contract-decisions.md, "Patterns").

/**
 * Why a pattern does not compile: RE2's reason and the 1-based character where the error is.
 *
 * @example
 * const problem: PatternProblem | undefined = patternProblem("a(?=b)");
 * problem?.position; // 2
 */
export interface PatternProblem {
  /** RE2's reason, e.g. `invalid or unsupported Perl syntax`, `missing closing )`. */
  reason: string;
  /** 1-based character (UTF-16 unit) where the error starts; one past the end when it is the end. */
  position: number;
}

/**
 * An anchored pattern: `matches` is true when the whole value matches (as `^(?:…)$` would).
 *
 * @example
 * const p: CompiledPattern = compilePattern("repo:acme/.*");
 * p.matches("repo:acme/app"); // true
 */
export interface CompiledPattern {
  readonly source: string;
  matches(value: string): boolean;
}

// Compiled patterns by source: the STS matches the same few on every exchange. Bounded so that
// callers cannot grow it without limit; the oldest entry goes first.
const CACHE_SIZE = 256;
const cache = new Map<string, RE2JS>();

function compiled(source: string): RE2JS {
  let re = cache.get(source);
  if (re === undefined) {
    re = RE2JS.compile(source);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(source, re);
  }
  return re;
}

/**
 * Why `source` is not an RE2 pattern, or `undefined` when it compiles. RE2 names the offending part
 * of the pattern (`(?=`, `\1`) or, when the pattern ends too early (`missing closing )`), all of
 * it: the position is where that part first occurs, or one past the end.
 *
 * @example
 * patternProblem("repo:acme/(?i).*"); // undefined
 * patternProblem("(a)\\1");           // { reason: "invalid escape sequence", position: 4 }
 */
export function patternProblem(source: string): PatternProblem | undefined {
  try {
    compiled(source);
    return undefined;
  } catch (e) {
    if (!(e instanceof RE2JSSyntaxException)) throw e;
    const part = e.input ?? "";
    const at = part === "" || part === source ? -1 : source.indexOf(part);
    return { reason: e.error, position: at < 0 ? source.length + 1 : at + 1 };
  }
}

/**
 * {@link patternProblem} as one sentence for a field's error message, or `undefined`.
 *
 * @example
 * describePatternProblem("a(?=b)");
 * // "is not a valid RE2 pattern: invalid or unsupported Perl syntax at character 2 (the service's patterns are Go regular expressions: no look-around or back-references)"
 */
export function describePatternProblem(source: string): string | undefined {
  const problem = patternProblem(source);
  if (problem === undefined) return undefined;
  const where = problem.position > source.length ? "at the end" : `at character ${problem.position}`;
  return `is not a valid RE2 pattern: ${problem.reason} ${where} (the service's patterns are Go regular expressions: no look-around or back-references)`;
}

/**
 * Compiles an anchored RE2 pattern; throws a `SyntaxError` with {@link describePatternProblem}'s
 * sentence when it does not compile.
 *
 * @example
 * compilePattern("(?i)repo:acme/.*").matches("REPO:acme/app"); // true
 */
export function compilePattern(source: string): CompiledPattern {
  const problem = describePatternProblem(source);
  if (problem !== undefined) throw new SyntaxError(`pattern ${problem}`);
  const re = compiled(source);
  return { source, matches: (value) => re.testExact(value) };
}

/**
 * Whether the whole of `value` matches the RE2 pattern, in time linear in the value's length. A
 * pattern that does not compile matches nothing.
 *
 * @example
 * matchesPattern("repo:acme/.*", "repo:acme/app:ref:refs/heads/main"); // true
 * matchesPattern("(a+)+b", "a".repeat(100_000));                     // false, at once
 */
export function matchesPattern(pattern: string, value: string): boolean {
  try {
    return compiled(pattern).testExact(value);
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) return false;
    throw e;
  }
}
