import { z } from "zod";
import { optionalMessage, ProtoString, repeated, Uid } from "./common.js";
import { BoundOverlay } from "./overlay.js";

// The published `OverlayBinding` (registry/v2beta1/overlay_bindings.proto): one overlay bound to one
// repo for exact tags. No update rpc, no v2 yet.

/**
 * An overlay binding as read: its uid is a child of the repo's, and the overlay comes expanded.
 *
 * @example
 * const b = OverlayBinding.parse(body);
 * b.overlay?.name; // "debug-tools"
 */
export const OverlayBinding = z.object({
  uid: Uid,
  repo: ProtoString,
  overlay: optionalMessage(BoundOverlay),
  tags: repeated(z.string()),
});
/**
 * An overlay binding.
 *
 * @example
 * const b: OverlayBinding = await client.overlayBindings.get(uid);
 */
export type OverlayBinding = z.infer<typeof OverlayBinding>;

/**
 * Body of `POST /registry/v2beta1/overlayBindings/<repo_uid>` (the whole request is the body): the
 * overlay by uid, or by name within the repo's organization, and at least one exact tag.
 *
 * @example
 * OverlayBindingCreate.parse({ overlay: "debug-tools", tags: ["latest"] });
 */
export const OverlayBindingCreate = z.object({
  overlay: z.string().min(1, { message: "is required: an overlay uid or name" }),
  tags: z.array(z.string().min(1)).min(1, { message: "must list at least one tag" }),
});
/**
 * Body of an overlay binding create.
 *
 * @example
 * await client.overlayBindings.create(repo.uid, { overlay: overlay.uid, tags: ["latest"] });
 */
export type OverlayBindingCreate = z.infer<typeof OverlayBindingCreate>;
