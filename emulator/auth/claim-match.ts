import type { ClaimMatch } from "pulumi-irv/sdk";
import { matchesPattern } from "pulumi-irv/sdk";

const text = (v: unknown): string | undefined =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;

const fits = (exact: string | undefined, pattern: string | undefined, value: string | undefined) =>
  exact !== undefined
    ? value === exact
    : pattern !== undefined
      ? value !== undefined && matchesPattern(pattern, value)
      : true;

/**
 * The `aud` values of a token's claims.
 *
 * @example
 * audiences({ aud: ["a", "b"] }); // ["a", "b"]
 */
export function audiences(claims: Record<string, unknown>): string[] {
  const aud = claims.aud;
  return (Array.isArray(aud) ? aud : [aud]).filter((a): a is string => typeof a === "string");
}

/**
 * Whether verified token claims satisfy an identity's claimMatch: issuer and subject exactly or by
 * anchored RE2 pattern (the sdk's, linear in the value); the audience likewise when the identity
 * names one (otherwise the STS has already required its own); every `claims` entry equal to the
 * token's claim (numbers and booleans compared as text); every `claimPatterns` entry matching.
 *
 * @example
 * claimsMatch({ issuer: "https://i", subjectPattern: "repo:acme/.*" }, { iss: "https://i", sub: "repo:acme/app" }); // true
 */
export function claimsMatch(m: ClaimMatch, claims: Record<string, unknown>): boolean {
  if (!fits(m.issuer, m.issuerPattern, text(claims.iss))) return false;
  if (!fits(m.subject, m.subjectPattern, text(claims.sub))) return false;
  if (m.audience !== undefined || m.audiencePattern !== undefined) {
    if (!audiences(claims).some((a) => fits(m.audience, m.audiencePattern, a))) return false;
  }
  for (const [name, want] of Object.entries(m.claims ?? {})) if (text(claims[name]) !== want) return false;
  for (const [name, pattern] of Object.entries(m.claimPatterns ?? {})) {
    const got = text(claims[name]);
    if (got === undefined || !matchesPattern(pattern, got)) return false;
  }
  return true;
}
