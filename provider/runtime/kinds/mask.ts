/**
 * An update mask in the paths the API accepts: a changed leaf deeper than the API masks (a key of
 * `claimMatch.claims`, a field of an account association's block) becomes the longest accepted
 * path above it. The body always carries whole top-level objects, so widening loses nothing.
 *
 * @example
 * maskWithin(["amazon.account", "name"], ["name", "amazon"]); // ["amazon", "name"]
 */
export function maskWithin(updateMask: readonly string[], accepted: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of updateMask) {
    let p = path;
    while (!accepted.includes(p) && p.includes(".")) p = p.slice(0, p.lastIndexOf("."));
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/**
 * Renames the top-level input fields of a PATCH to the API's field names (body and mask).
 *
 * @example
 * renameFields({ defaultRoleUid: "r" }, ["defaultRoleUid"], { defaultRoleUid: "defaultRole" });
 * // → { body: { defaultRole: "r" }, updateMask: ["defaultRole"] }
 */
export function renameFields(
  body: Record<string, unknown>,
  updateMask: readonly string[],
  names: Readonly<Record<string, string>>,
): { body: Record<string, unknown>; updateMask: string[] } {
  const rename = (path: string) => {
    const [head = "", ...rest] = path.split(".");
    return [names[head] ?? head, ...rest].join(".");
  };
  return {
    body: Object.fromEntries(Object.entries(body).map(([k, v]) => [rename(k), v])),
    updateMask: updateMask.map(rename),
  };
}
