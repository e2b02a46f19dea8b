import { failedPrecondition, permissionDenied } from "../core/index.js";
import type { ResourceRow } from "../store/index.js";
import type { KindContext, KindHooks } from "./kind-context.js";
import { MAX_LISTED_VIOLATIONS } from "./limits.js";

/**
 * How a child is named in a RESOURCE_NOT_EMPTY violation: its kind and name, or, for the kinds
 * without names, what it refers to.
 *
 * @example
 * describeChild(ctx, row); // 'identity "ci"', 'role binding of role "viewer" to identity …'
 */
export function describeChild(ctx: KindContext, row: ResourceRow, singular: string): string {
  if (row.kind === "roleBindings") {
    const roleName = ctx.table.get("roles", row.refRole ?? "")?.name ?? row.refRole;
    return `${singular} of role ${JSON.stringify(roleName)} to identity ${row.refIdentity}`;
  }
  return row.name === "" ? singular : `${singular} ${JSON.stringify(row.name)}`;
}

/**
 * Groups: the root organization is never deleted; a group with any child — of any kind — refuses
 * (code 9, one RESOURCE_NOT_EMPTY violation per child, at most {@link MAX_LISTED_VIOLATIONS}).
 *
 * @example
 * groupHooks((kind) => kind).beforeDelete?.(ctx, caller, row);
 */
export function groupHooks(singularOf: (kind: string) => string): KindHooks {
  return {
    beforeDelete(ctx, _caller, row) {
      if (row.uid === ctx.orgUid) throw permissionDenied("delete the root organization");
      const children = ctx.table.children(row.uid, MAX_LISTED_VIOLATIONS);
      if (children.length === 0) return;
      const total = ctx.table.countChildren(row.uid);
      const more = total - children.length;
      throw failedPrecondition(
        `group ${JSON.stringify(row.uid)} is not empty: it has ${total} direct child resource${total === 1 ? "" : "s"}` +
          `${more > 0 ? ` (${children.length} listed, ${more} more)` : ""}; delete them first`,
        children.map((c) => ({
          type: "RESOURCE_NOT_EMPTY",
          subject: c.uid,
          description: `group has child ${describeChild(ctx, c, singularOf(c.kind))} (uid ${c.uid})`,
        })),
      );
    },
  };
}
