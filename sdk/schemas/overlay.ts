import { z } from "zod";
import { ProtoString, Uid } from "./common.js";
import { CustomOverlay } from "./custom-overlay.js";

// The published `Overlay` (registry/v2beta1/overlays.proto): a named, reusable package set under a
// group, bound to repos by OverlayBindings. It has no update rpc and no v2 yet.

/**
 * An overlay as read. Its uid is a child of its group's uid; `config` is rendered packages-only.
 *
 * @example
 * const o = Overlay.parse(body);
 * o.config.contents?.packages; // ["curl", "jq"]
 */
export const Overlay = z.object({
  uid: Uid,
  name: z.string(),
  config: CustomOverlay.nullish().transform((v) => v ?? { environment: {}, annotations: {} }),
});
/**
 * A reusable overlay.
 *
 * @example
 * const o: Overlay = await client.overlays.get(uid);
 */
export type Overlay = z.infer<typeof Overlay>;

/**
 * Body of `POST /registry/v2beta1/overlays/<group_uid>`. Only `config.contents.packages` is accepted,
 * with at least one package (published comment of `CreateOverlay`); anything else is refused by
 * name before any call.
 *
 * @example
 * OverlayCreate.parse({ name: "debug-tools", config: { contents: { packages: ["curl"] } } });
 */
export const OverlayCreate = z.object({
  name: z.string().min(1, { message: "is required" }),
  config: z.strictObject({
    contents: z.strictObject({
      packages: z.array(z.string().min(1)).min(1, { message: "must list at least one package" }),
    }),
  }),
});
/**
 * Body of an overlay create.
 *
 * @example
 * await client.overlays.create(orgUid, { name: "tools", config: { contents: { packages: ["jq"] } } });
 */
export type OverlayCreate = z.infer<typeof OverlayCreate>;

/**
 * The overlay as an overlay binding answers it, expanded inline.
 *
 * @example
 * BoundOverlay.parse({ uid, name: "tools", config: null });
 */
export const BoundOverlay = z.object({
  uid: ProtoString,
  name: ProtoString,
  config: CustomOverlay.nullish().transform((v) => v ?? { environment: {}, annotations: {} }),
});
