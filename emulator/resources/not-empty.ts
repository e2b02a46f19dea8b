import { failedPrecondition } from "../core/index.js";
import type { ResourceRow } from "../store/index.js";
import type { KindContext } from "./kind-context.js";
import { MAX_LISTED_VIOLATIONS } from "./limits.js";

/**
 * Refuses (code 9, one RESOURCE_NOT_EMPTY violation per child, at most
 * {@link MAX_LISTED_VIOLATIONS}) the delete of a resource that has resources under it, as a group
 * with children is refused: a repo with tags or overlay bindings, an identity provider with
 * external group role mappings.
 *
 * @example
 * refuseNotEmpty(ctx, repoUid, "repo", "tags or overlay bindings", (c) => `tag ${c.name}`);
 */
export function refuseNotEmpty(
  ctx: KindContext,
  uid: string,
  singular: string,
  children: string,
  describe: (child: ResourceRow) => string,
): void {
  // The common case, nothing under it, costs one index probe; the listing sorts.
  if (!ctx.table.hasChildren(uid)) return;
  const rows = ctx.table.children(uid, MAX_LISTED_VIOLATIONS);
  const total = ctx.table.countChildren(uid);
  const more = total - rows.length;
  throw failedPrecondition(
    `${singular} ${JSON.stringify(uid)} is not empty: it has ${total} of its ${children} under it` +
      `${more > 0 ? ` (${rows.length} listed, ${more} more)` : ""}; delete them first`,
    rows.map((c) => ({
      type: "RESOURCE_NOT_EMPTY",
      subject: c.uid,
      description: `${singular} has ${describe(c)} (uid ${c.uid})`,
    })),
  );
}
