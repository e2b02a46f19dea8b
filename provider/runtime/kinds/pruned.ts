/**
 * A value without what the service writes for "unset" (`""`, `[]`, `{}`, `null`), at every depth:
 * the form in which a nested message the service answers in full (a custom overlay with its empty
 * maps, a sync config with its empty clouds) compares with the few fields a program declares.
 * Undefined when nothing is left.
 *
 * @example
 * pruned({ contents: { packages: ["curl"], runtimeKeyring: [] }, environment: {} });
 * // { contents: { packages: ["curl"] } }
 */
export function pruned(value: unknown): unknown {
  if (value === null || value === undefined || value === "") return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => (typeof v === "object" ? pruned(v) : v)).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = pruned(v);
    if (p !== undefined) out[k] = p;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
