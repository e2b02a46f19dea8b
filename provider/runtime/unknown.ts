/**
 * The value the engine puts in place of an input not known yet during preview (an output of a
 * resource still to be created). Checks let it through; diffs count it as a change.
 *
 * @example
 * if (news.parentUid === UNKNOWN) return { changes: true };
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * Whether the value at `path` of `obj` (or any prefix of it) is unknown.
 *
 * @example
 * isUnknownAt({ claimMatch: UNKNOWN }, ["claimMatch", "issuer"]); // true
 */
export function isUnknownAt(obj: unknown, path: readonly PropertyKey[]): boolean {
  let cur: unknown = obj;
  if (cur === UNKNOWN) return true;
  for (const key of path) {
    if (typeof cur !== "object" || cur === null) return false;
    cur = (cur as Record<PropertyKey, unknown>)[key];
    if (cur === UNKNOWN) return true;
  }
  return false;
}
