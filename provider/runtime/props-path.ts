import type { Props } from "./kind-definition.js";

/**
 * The value at `path` inside `obj` (undefined when any step is missing or not an object).
 *
 * @example
 * valueAt({ oidc: { clientSecret: "s" } }, ["oidc", "clientSecret"]); // "s"
 */
export function valueAt(obj: unknown, path: readonly PropertyKey[]): unknown {
  let cur = obj;
  for (const k of path)
    cur = typeof cur === "object" && cur !== null ? (cur as Record<PropertyKey, unknown>)[k] : undefined;
  return cur;
}

/**
 * Sets (or, for `undefined`, deletes) the value at `path` inside `obj`, in place; a path through a
 * missing or non-object step changes nothing, since there is no value to set there.
 *
 * @example
 * setAt(outs, ["oidc", "clientSecret"], stateSecret);
 */
export function setAt(obj: Props, path: readonly string[], value: unknown): void {
  let cur: Props = obj;
  for (const key of path.slice(0, -1)) {
    const next = cur[key];
    if (typeof next !== "object" || next === null) return;
    cur = next as Props;
  }
  const last = path[path.length - 1] ?? "";
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}
