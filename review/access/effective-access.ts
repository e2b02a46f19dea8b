import type { BindingNode, OrgModel, Ref } from "./org-model.js";

/**
 * What one identity may do at one group: `certain` capabilities, and `possible` ones (a superset:
 * also what bindings with values unknown at preview may grant), each with the bindings granting it.
 *
 * @example
 * const a = access.get(identityRef)?.get(groupRef);
 * a?.certain.has("groups.delete");
 */
export interface GroupAccess {
  certain: ReadonlySet<string>;
  possible: ReadonlySet<string>;
  /** Capability → the bindings (at this group or an ancestor) granting it, certain or possible. */
  via: ReadonlyMap<string, readonly BindingNode[]>;
}

/**
 * Every identity's access at every group of a model: identity ref → group ref → access. Only
 * identities with at least one binding appear.
 *
 * @example
 * const access = effectiveAccess(model, CAPABILITIES);
 */
export type EffectiveAccess = ReadonlyMap<Ref, ReadonlyMap<Ref, GroupAccess>>;

/** The pseudo reference of a binding's unresolved identity or group. */
export const unresolvedRef = (binding: BindingNode, what: "identity" | "group"): Ref =>
  `?${what}:${binding.ref}`;

/**
 * The group itself and its ancestors up to the root, as far as the model knows them.
 *
 * @example
 * ancestry(model, teamRef); // [teamRef, platformRef, orgUid]
 */
export function ancestry(model: OrgModel, group: Ref): Ref[] {
  const chain: Ref[] = [];
  for (let g: Ref | null | undefined = group; g !== null && g !== undefined && !chain.includes(g); ) {
    chain.push(g);
    g = model.groups.get(g)?.parent;
  }
  return chain;
}

/**
 * Whether a group is the root organization (its uid has no `/`).
 *
 * @example
 * isRoot(model, orgUid); // true
 */
export function isRoot(model: OrgModel, group: Ref): boolean {
  const g = model.groups.get(group);
  return g?.parent === null || (g?.uid !== undefined && !g.uid.includes("/"));
}

/**
 * The groups where each identity of a model is bound (its bindings' groups, unresolved ones as
 * pseudo references): the only groups where its access can start to differ between two models, so
 * the only ones a review evaluates.
 *
 * @example
 * const scopes = bindingScopes(model); // identity ref → group refs
 */
export function bindingScopes(model: OrgModel): Map<Ref, Set<Ref>> {
  const out = new Map<Ref, Set<Ref>>();
  for (const b of model.bindings) {
    const id = b.identity ?? unresolvedRef(b, "identity");
    const set = out.get(id) ?? new Set<Ref>();
    set.add(b.group ?? unresolvedRef(b, "group"));
    out.set(id, set);
  }
  return out;
}

/**
 * Effective capabilities, following the rules the API enforces: a binding grants its role's
 * capabilities at its group and every descendant; a role is a set of capabilities. A binding whose
 * identity, group or role the model cannot resolve counts as possible only (its identity or group
 * becomes a pseudo reference of its own; an unknown role may grant anything in `allCapabilities`).
 * Each identity is evaluated at the groups `scopes` gives it (default: where it is bound in this
 * model), not at every group: a capability gained or lost anywhere is gained or lost at one of the
 * groups where a binding of it is, before or after.
 *
 * @example
 * const access = effectiveAccess(after, ownerCapabilities);
 */
export function effectiveAccess(
  model: OrgModel,
  allCapabilities: readonly string[],
  scopes: ReadonlyMap<Ref, ReadonlySet<Ref>> = bindingScopes(model),
): EffectiveAccess {
  const byIdentity = new Map<Ref, BindingNode[]>();
  for (const b of model.bindings) {
    const id = b.identity ?? unresolvedRef(b, "identity");
    const list = byIdentity.get(id) ?? [];
    list.push(b);
    byIdentity.set(id, list);
  }
  const chains = new Map<Ref, Set<Ref>>();
  const chainOf = (g: Ref): Set<Ref> => {
    let c = chains.get(g);
    if (c === undefined) {
      c = new Set(ancestry(model, g));
      chains.set(g, c);
    }
    return c;
  };

  const out = new Map<Ref, Map<Ref, GroupAccess>>();
  for (const [identity, bs] of byIdentity) {
    const perGroup = new Map<Ref, GroupAccess>();
    for (const group of scopes.get(identity) ?? []) {
      const chain = chainOf(group);
      const certain = new Set<string>();
      const possible = new Set<string>();
      const via = new Map<string, BindingNode[]>();
      for (const b of bs) {
        if (!chain.has(b.group ?? unresolvedRef(b, "group"))) continue;
        const role = b.role === undefined ? undefined : model.roles.get(b.role);
        const caps = role?.capabilities ?? allCapabilities;
        const sure = b.identity !== undefined && b.group !== undefined && role?.capabilities !== undefined;
        for (const c of caps) {
          possible.add(c);
          if (sure) certain.add(c);
          const list = via.get(c);
          if (list === undefined) via.set(c, [b]);
          else list.push(b);
        }
      }
      if (possible.size > 0) perGroup.set(group, { certain, possible, via });
    }
    out.set(identity, perGroup);
  }
  return out;
}

/**
 * The bindings at the root organization whose role holds every capability of `owner` (certainly).
 *
 * @example
 * if (ownerBindingsAtRoot(after, ownerCaps).length === 0) console.log("lock-out");
 */
export function ownerBindingsAtRoot(model: OrgModel, ownerCapabilities: readonly string[]): BindingNode[] {
  return model.bindings.filter((b) => {
    const caps = b.role === undefined ? undefined : model.roles.get(b.role)?.capabilities;
    return (
      b.group !== undefined &&
      b.identity !== undefined &&
      caps !== undefined &&
      isRoot(model, b.group) &&
      ownerCapabilities.every((c) => caps.includes(c))
    );
  });
}
