/**
 * A PATCH to send: the body and the `updateMask` paths that say exactly what changes.
 *
 * @example
 * const fields = ["name", "description", "claimMatch"];
 * const patch: ComputedUpdate | undefined = computeUpdate(current, desired, fields);
 * if (patch) await client.identities.update(uid, patch.body, { updateMask: patch.updateMask });
 */
export interface ComputedUpdate {
  /** New values of the changed fields; a field being cleared is listed in the mask and absent here. */
  body: Record<string, unknown>;
  /** Dotted field paths, in a stable order (the order of `fields`, then nested keys sorted). */
  updateMask: string[];
}

/**
 * Computes the PATCH for moving a resource from `current` to `desired`, looking only at `fields`
 * (the mutable top-level fields). Returns `undefined` when nothing changes, so no call is made.
 *
 * - A changed scalar is listed and carried in the body.
 * - A field present in `current` but `undefined` in `desired` is cleared: listed, absent from the body
 *   (AIP-134: a listed field missing from the body is reset).
 * - A nested object lists only its changed leaves (`claimMatch.subject`) and carries the whole new
 *   object, so the server never sees a half object.
 *
 * @example
 * computeUpdate({ name: "a", description: "x" }, { name: "a" }, ["name", "description"]);
 * // → { body: {}, updateMask: ["description"] }
 */
export function computeUpdate(
  current: Readonly<Record<string, unknown>>,
  desired: Readonly<Record<string, unknown>>,
  fields: readonly string[],
): ComputedUpdate | undefined {
  const body: Record<string, unknown> = {};
  const updateMask: string[] = [];
  for (const field of fields) {
    const before = current[field];
    const after = desired[field];
    if (after === undefined) {
      if (before !== undefined && before !== "") updateMask.push(field);
      continue;
    }
    if (isPlainObject(after) && isPlainObject(before)) {
      const leaves = changedLeaves(before, after, field);
      if (leaves.length > 0) {
        updateMask.push(...leaves);
        body[field] = after;
      }
      continue;
    }
    if (!deepEqual(before, after)) {
      updateMask.push(field);
      body[field] = after;
    }
  }
  return updateMask.length === 0 ? undefined : { body, updateMask };
}

function changedLeaves(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  prefix: string,
): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const out: string[] = [];
  for (const k of keys) {
    const b = before[k];
    const a = after[k];
    if (isPlainObject(a) && isPlainObject(b)) out.push(...changedLeaves(b, a, `${prefix}.${k}`));
    else if (!deepEqual(a, b)) out.push(`${prefix}.${k}`);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Structural equality of JSON values (objects by keys, arrays by position); `undefined` members of
 * objects are treated as absent.
 *
 * @example
 * deepEqual({ a: 1, b: undefined }, { a: 1 }); // true
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    // Each side's keys against the other, no set of both built: refresh compares every resource.
    for (const k in a) if (Object.hasOwn(a, k) && !deepEqual(a[k], b[k])) return false;
    for (const k in b) if (Object.hasOwn(b, k) && !Object.hasOwn(a, k) && b[k] !== undefined) return false;
    return true;
  }
  return false;
}
