import { HIERARCHICAL_UID_PATTERN } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { ancestorUid, invalidArgument } from "../core/index.js";
import type { KindContext, KindHooks } from "./kind-context.js";

type Fields = Record<string, unknown>;

/**
 * The overlay a binding's `overlay` names — its uid, or its name among the overlays of the repo's
 * organization (published overlay_bindings.proto, CreateOverlayBindingRequest.overlay) — in the
 * gateway's form. Code 3 naming `overlay` when there is none the caller can read there, or when a
 * name is taken by overlays of several groups (a uid then says which).
 *
 * @example
 * boundOverlay(ctx, caller, repoUid, "debug-tools").uid;
 */
export function boundOverlay(ctx: KindContext, caller: Caller, repoUid: string, ref: string): Fields {
  const org = repoUid.slice(0, 40);
  const readable = (uid: string) => caller.has("registry.overlays.list", ancestorUid(uid, 1) ?? uid);
  const candidates = HIERARCHICAL_UID_PATTERN.test(ref)
    ? ctx.table.has("overlays", ref)
      ? [ref]
      : []
    : ctx.table
        .all("overlays")
        .filter((r) => r.name === ref)
        .map((r) => r.uid);
  const found = candidates.filter((uid) => uid.startsWith(`${org}/`) && readable(uid));
  if (found.length !== 1) {
    throw invalidArgument([
      {
        field: "overlay",
        description:
          found.length === 0
            ? `${JSON.stringify(ref)} names no overlay of the repo's organization the caller can read`
            : `${found.length} overlays of the organization are named ${JSON.stringify(ref)} (${found.join(", ")}): give the uid`,
      },
    ]);
  }
  return JSON.parse(ctx.table.data("overlays", found[0] as string) as string) as Fields;
}

/**
 * Overlay bindings (published registry/v2beta1/overlay_bindings.proto): under a repo; the create's
 * body is the request itself, `{overlay, tags}`, the overlay by uid or by name
 * ({@link boundOverlay}), at least one tag, each once. The answer holds the repo's uid and the
 * overlay expanded (overlays never change, so it is expanded once); no timestamps. The row refers
 * to its overlay, which therefore cannot be deleted while bound.
 *
 * @example
 * OVERLAY_BINDING_HOOKS.refs?.({ overlay: { uid: overlayUid } }); // { identity: null, role: overlayUid }
 */
export const OVERLAY_BINDING_HOOKS: KindHooks = {
  beforeCreate(ctx, w) {
    const tags = (w.fields.tags as string[]) ?? [];
    const twice = tags.filter((t, i) => tags.indexOf(t) !== i);
    if (twice.length > 0) {
      throw invalidArgument([
        { field: "tags", description: `lists ${JSON.stringify(twice[0])} more than once` },
      ]);
    }
    const overlay = boundOverlay(ctx, w.caller, w.parentUid, String(w.fields.overlay));
    return { repo: w.parentUid, overlay, tags };
  },
  stored: (uid, _parentUid, f) => ({ uid, repo: f.repo, overlay: f.overlay, tags: f.tags }),
  // The index of references (a binding's role) serves here for the binding's overlay.
  refs: (data) => ({ identity: null, role: String((data.overlay as Fields | undefined)?.uid ?? "") || null }),
  describe: (_ctx, row) =>
    `overlay binding of overlay ${JSON.stringify((JSON.parse(row.data) as { overlay?: { name?: string } }).overlay?.name ?? "")}`,
};
