const BEARER = /(bearer\s+)[^\s"',]+/gi;
// Three base64url segments separated by dots: a JWS/JWT, whoever carries it.
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}\b/g;
const QUERY_SECRET = /([?&](?:token|access_token|id_token|identity_token|assertion)=)[^&\s"']+/gi;

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
