import type { EffectiveAccess } from "./effective-access.js";
import { ancestry, unresolvedRef } from "./effective-access.js";
import type { OrgModel } from "./org-model.js";

/**
 * One identity's effective capabilities in one group subtree (where one of its bindings is).
 *
 * @example
 * const e: AccessEntry = { identity: "ci", subtree: "/platform", capabilities: ["groups.list"], maybe: [] };
 */
export interface AccessEntry {
  identity: string;
  subtree: string;
  capabilities: string[];
  /** Capabilities it may hold there, depending on values unknown at preview. */
  maybe: string[];
}

/**
 * The effective access of every identity of a model, at each group where it has a binding (its
 * capabilities there include what bindings above grant), for a report's before/after sections.
 * `name` and `path` say how the report names an identity and a group.
 *
 * @example
 * const before = listAccess(model, effectiveAccess(model, owner), (r) => r, (g) => g);
 */
export function listAccess(
  model: OrgModel,
  access: EffectiveAccess,
  name: (identity: string) => string,
  path: (group: string) => string,
): AccessEntry[] {
  const out: AccessEntry[] = [];
  for (const [identity, perGroup] of access) {
    const scopes = new Set(
      model.bindings
        .filter((b) => (b.identity ?? unresolvedRef(b, "identity")) === identity)
        .map((b) => b.group ?? unresolvedRef(b, "group")),
    );
    for (const group of scopes) {
      const a = perGroup.get(group);
      if (a === undefined) continue;
      // A scope below another of the same identity with nothing more is not worth a line.
      const above = ancestry(model, group)
        .slice(1)
        .find((g) => scopes.has(g));
      const parent = above === undefined ? undefined : perGroup.get(above);
      if (parent !== undefined && [...a.possible].every((c) => parent.possible.has(c))) continue;
      out.push({
        identity: name(identity),
        subtree: path(group),
        capabilities: [...a.certain].sort(),
        maybe: [...a.possible].filter((c) => !a.certain.has(c)).sort(),
      });
    }
  }
  return out.sort((x, y) => x.identity.localeCompare(y.identity) || x.subtree.localeCompare(y.subtree));
}
