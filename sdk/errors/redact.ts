const BEARER = /(bearer\s+)[^\s"',]+/gi;
// Three base64url segments separated by dots: a JWS/JWT, whoever carries it.
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}\b/g;
const QUERY_SECRET = /([?&](?:token|access_token|id_token|identity_token|assertion)=)[^&\s"']+/gi;

/**
 * Shorter values are not redacted by value: replacing every occurrence of a 3-letter test token
 * would mangle messages, and so short a credential protects nothing anyway.
 *
 * @example
 * redactValues("key abc", ["abc"]); // "key abc": too short to be a credential
 */
export const MIN_REDACTED_LENGTH = 8;

/**
 * Blanks anything that looks like a credential (bearer values, JWTs, token query parameters) so
 * that error messages and logs can be shown and stored safely.
 *
 * @example
 * redactSecrets("Authorization: Bearer abc.def"); // "Authorization: Bearer ***"
 */
export function redactSecrets(text: string): string {
  return text.replace(BEARER, "$1***").replace(JWT, "***").replace(QUERY_SECRET, "$1***");
}

/**
 * Blanks the exact credential values given (and their URL-encoded forms), then anything
 * credential-shaped ({@link redactSecrets}). Opaque tokens have no shape: only their value finds them.
 *
 * @example
 * redactValues("token opaque-123456 is revoked", ["opaque-123456"]); // "token *** is revoked"
 */
export function redactValues(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < MIN_REDACTED_LENGTH) continue;
    out = out.split(s).join("***");
    const encoded = encodeURIComponent(s);
    if (encoded !== s) out = out.split(encoded).join("***");
  }
  return redactSecrets(out);
}

/**
 * Redacts, in place, every string an error carries — `message`, `stack`, own fields
 * (`serverMessage`, `fieldViolations`, `details`, …) and the `cause` chain — so that the error is
 * safe however it is shown (`String`, `JSON.stringify`, `util.inspect`, a log). Returns the error.
 *
 * @example
 * throw redactError(err, [apiToken, identityToken]);
 */
export function redactError<E>(error: E, secrets: Iterable<string>): E {
  const values = [...secrets];
  scrub(error, values, new WeakSet(), 0);
  return error;
}

function scrub(value: unknown, secrets: readonly string[], seen: WeakSet<object>, depth: number): void {
  if (typeof value !== "object" || value === null || seen.has(value) || depth > 10) return;
  seen.add(value);
  // Own non-enumerable properties too: an Error's message, stack and cause are not enumerable.
  for (const key of Object.getOwnPropertyNames(value)) {
    const d = Object.getOwnPropertyDescriptor(value, key);
    if (!d || !("value" in d)) continue; // accessors are left alone: reading one may have effects
    if (typeof d.value === "string") {
      const clean = redactValues(d.value, secrets);
      if (clean !== d.value && d.writable) (value as Record<string, unknown>)[key] = clean;
    } else scrub(d.value, secrets, seen, depth + 1);
  }
}
