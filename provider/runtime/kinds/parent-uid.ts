/**
 * The uid of the group a nested resource lives in: its uid without the last segment.
 *
 * @example
 * parentUidOf("aaaa/bbbb/cccc"); // "aaaa/bbbb"
 */
export function parentUidOf(uid: string): string {
  const i = uid.lastIndexOf("/");
  return i < 0 ? "" : uid.slice(0, i);
}

/**
 * Copies the defined values of `keys` from `src`, so that state never holds `undefined`.
 *
 * @example
 * defined({ a: 1, b: undefined }, ["a", "b"]); // { a: 1 }
 */
export function defined(src: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (src[k] !== undefined) out[k] = src[k];
  return out;
}
