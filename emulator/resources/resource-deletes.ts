import type { KindName } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { notFound } from "../core/index.js";
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
   * A Delete without the capability check (the control API's seeded kinds); the kind's rules apply.
   *
   * @example
   * deletes.remove(KIND_RULES.repos, repoUid);
   */
  remove(rules: KindRules, uid: string, caller: Caller = this.core.admin): void {
    this.core.db.transaction(() => {
      if (!this.core.table.has(rules.name, uid)) throw notFound(rules.spec.singular, uid);
      rules.hooks.beforeDelete?.(this.core, caller, uid);
      this.core.table.delete(rules.name, uid);
    });
  }
}
