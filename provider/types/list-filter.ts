import type * as pulumi from "@pulumi/pulumi";

/**
 * Scoping of a data source (spec §4 list filters).
 *
 * @example
 * const f: irv.ListFilter = { descendantsOf: orgUid, orderBy: "name" };
 */
export interface ListFilter {
  /** Anywhere below this group (`uidp.descendants_of`). */
  descendantsOf?: string | undefined;
  /** Direct children of this group (`uidp.children_of`). */
  childrenOf?: string | undefined;
  /** Exact name. */
  name?: string | undefined;
  /** `name`, `name desc`, `created_at desc`, `uid`. */
  orderBy?: string | undefined;
}

/**
 * {@link ListFilter} with Pulumi inputs, for the `…Output` forms.
 *
 * @example
 * const filter: irv.ListFilterInput = { descendantsOf: platform.uid, orderBy: "name" };
 * export const repos = irv.registry.getReposOutput(filter).repos;
 */
export type ListFilterInput = { [K in keyof ListFilter]?: pulumi.Input<string | undefined> };

/**
 * The arguments of a lookup with Pulumi inputs, for its `…Output` form.
 *
 * @example
 * const args: irv.InputsOf<{ name: string }> = { name: group.name };
 */
export type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> };
