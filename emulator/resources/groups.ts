import { failedPrecondition, permissionDenied } from "../core/index.js";
import type { ResourceRow } from "../store/index.js";
import type { KindContext, KindHooks } from "./kind-context.js";
import { MAX_LISTED_VIOLATIONS } from "./limits.js";

/**
 * What the group hooks need to know of a child's kind.
 *
 * @example
 * const child: ChildKind = { singular: "identity", hooks: IDENTITY_HOOKS };
 */
export interface ChildKind {
  singular: string;
  hooks: KindHooks;
}

// A child in a RESOURCE_NOT_EMPTY violation: its kind's own description, else its kind and name.
function describeChild(ctx: KindContext, row: ResourceRow, kind: ChildKind | undefined): string {
  const own = kind?.hooks.describe?.(ctx, row);
  if (own !== undefined) return own;
  const singular = kind?.singular ?? row.kind;
  return row.name === "" ? singular : `${singular} ${JSON.stringify(row.name)}`;
}

/**
 * Groups: the root organization is never deleted; a group with any child — of any kind — refuses
 * (code 9, one RESOURCE_NOT_EMPTY violation per child, at most {@link MAX_LISTED_VIOLATIONS}).
 *
 * @example
 * groupHooks((kind) => ({ singular: kind, hooks: {} })).beforeDelete?.(ctx, caller, groupUid);
 */
export function groupHooks(kindOf: (kind: string) => ChildKind | undefined): KindHooks {
  return {
    beforeDelete(ctx, _caller, uid) {
      if (uid === ctx.orgUid) throw permissionDenied("delete the root organization");
      // The common case, an empty group, costs one index probe; the listing sorts.
      if (!ctx.table.hasChildren(uid)) return;
      const children = ctx.table.children(uid, MAX_LISTED_VIOLATIONS);
      const total = ctx.table.countChildren(uid);
      const more = total - children.length;
      throw failedPrecondition(
        `group ${JSON.stringify(uid)} is not empty: it has ${total} direct child resource${total === 1 ? "" : "s"}` +
          `${more > 0 ? ` (${children.length} listed, ${more} more)` : ""}; delete them first`,
        children.map((c) => ({
          type: "RESOURCE_NOT_EMPTY",
          subject: c.uid,
          description: `group has child ${describeChild(ctx, c, kindOf(c.kind))} (uid ${c.uid})`,
        })),
      );
    },
  };
}
