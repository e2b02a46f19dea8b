/**
 * `text` as an RE2 pattern matching exactly that text: every metacharacter escaped, as Go's
 * `regexp.QuoteMeta` does (the service's syntax). A repository `acme/a.b` becomes `acme/a\.b`, which
 * never matches `acme/aXb`.
 *
 * @example
 * quoteMeta("acme/a.b"); // "acme/a\\.b"
 */
export function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, "\\$&");
}
