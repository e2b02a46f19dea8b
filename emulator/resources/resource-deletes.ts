import type { KindName } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { ancestorUid, invalidArgument, notFound } from "../core/index.js";
import type { KindRules } from "./kind-rules.js";
import { KIND_RULES } from "./kind-rules.js";
import type { ServiceCore } from "./service-core.js";

/**
 * The delete part of the API (answered with an empty body), one transaction each: the capability,
 * existence, then the kind's own rules — a non-empty group or a bound role refuses (code 9), an
 * identity takes its role bindings along, a repo its tags.
 *
 * @example
 * const deletes = new ResourceDeletes(core);
 * deletes.delete(caller, "identities", uid);
 */
export class ResourceDeletes {
  constructor(private readonly core: ServiceCore) {}

  /**
   * A Delete by a caller.
   *
   * @example
   * deletes.delete(caller, "groups", uid);
   */
  delete(caller: Caller, kind: KindName, uid: string): void {
    const rules = KIND_RULES[kind];
    this.core.authorize(caller, rules, "delete", uid);
    this.remove(rules, uid, caller);
  }

  /**
   * A Delete without the capability check; the kind's rules apply. With `cascade` (the control API's
   * seeded kinds: a repo takes its tags and overlay bindings along) the resources under it go first.
   *
   * @example
   * deletes.remove(KIND_RULES.repos, repoUid);
   */
  remove(rules: KindRules, uid: string, caller: Caller = this.core.admin, cascade = false): void {
    this.core.db.transaction(() => {
      const table = this.core.table;
      if (!table.has(rules.name, uid)) throw notFound(rules.spec.singular, uid);
      if (cascade) for (const child of table.children(uid, -1)) table.delete(child.kind, child.uid);
      rules.hooks.beforeDelete?.(this.core, caller, uid);
      table.delete(rules.name, uid);
    });
  }

  /**
   * The batch delete of external group role mappings (published
   * `BatchDeleteExternalGroupRoleMappings`): every name must be a mapping uid under `parent`, an
   * identity provider (code 3 naming the entry otherwise); one already gone is skipped. One
   * transaction; answers the parent and the mappings deleted.
   *
   * @example
   * deletes.batchDeleteMappings(caller, idpUid, [mappingUid]);
   */
  batchDeleteMappings(caller: Caller, parent: string, names: unknown): string {
    const rules = KIND_RULES.externalGroupRoleMappings;
    // Validated before it names a scope: a uid of an identity provider is group/provider.
    if (!/^[0-9a-f]{40}(\/[0-9a-f]{16})+$/.test(parent)) {
      throw invalidArgument([{ field: "parent", description: "must be the uid of an identity provider" }]);
    }
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== "string")) {
      throw invalidArgument([{ field: "names", description: "must list at least one mapping uid" }]);
    }
    const foreign = (names as string[]).flatMap((n, i) =>
      ancestorUid(n, 1) === parent
        ? []
        : [
            {
              field: `names[${i}]`,
              description: `${JSON.stringify(n)} is not a mapping of identity provider ${JSON.stringify(parent)}`,
            },
          ],
    );
    this.core.authorize(caller, rules, "delete", parent, ancestorUid(parent, 1) ?? parent);
    if (foreign.length > 0) throw invalidArgument(foreign);
    return this.core.db.transaction(() => {
      const table = this.core.table;
      if (!table.has("identityProviders", parent))
        throw notFound(KIND_RULES.identityProviders.spec.singular, parent);
      const deleted: string[] = [];
      for (const uid of new Set(names as string[])) {
        const data = table.data(rules.name, uid);
        if (data === undefined) continue;
        deleted.push(this.core.output(rules, data, caller));
        table.delete(rules.name, uid);
      }
      return `{"parent":${JSON.stringify(parent)},"externalGroupRoleMappings":[${deleted.join(",")}]}`;
    });
  }
}
