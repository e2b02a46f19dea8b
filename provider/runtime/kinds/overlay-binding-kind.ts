import { z } from "zod";
import type { OverlayBinding } from "../../../sdk/index.js";
import { OverlayBindingCreateSchema } from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { uidInput } from "./inputs.js";
import { parentUidOf } from "./parent-uid.js";

/**
 * Inputs of `irv.registry.OverlayBinding`: the repo, the overlay (its uid, or its name in the repo's
 * organization) and the exact tags it applies to (at least one).
 *
 * @example
 * OverlayBindingInputs.parse({ repoUid, overlay: overlayUid, tags: ["latest"] });
 */
export const OverlayBindingInputs = z.object({
  repoUid: uidInput("the uid of the repo the overlay is bound to"),
  overlay: OverlayBindingCreateSchema.shape.overlay,
  tags: OverlayBindingCreateSchema.shape.tags,
});

/**
 * `irv.registry.OverlayBinding`: an overlay bound to a repo for exact tags. The service has no
 * update: any change replaces it. `overlay` keeps the form the program wrote (uid or name); the
 * overlay the service resolved is `overlayUid` and `overlayName`.
 *
 * @example
 * makeProvider(overlayBindingKind, getClient);
 */
export const overlayBindingKind = defineKind({
  type: "OverlayBinding",
  singular: "overlay binding",
  inputs: OverlayBindingInputs,
  inputKeys: ["repoUid", "overlay", "tags"],
  replaceKeys: ["repoUid", "overlay", "tags"],
  mutableKeys: [],
  outputs: z.object({ uid: z.string(), overlayUid: z.string(), overlayName: z.string() }),
  // A name and the uid it resolves to are one overlay: refresh keeps what the program wrote.
  writeOnly: ["overlay"],
  create: (client, { repoUid, overlay, tags }) => client.overlayBindings.create(repoUid, { overlay, tags }),
  get: (client, uid) => client.overlayBindings.find(uid),
  update: () => Promise.reject(new Error("overlay bindings are replaced, never updated")),
  delete: (client, uid) => client.overlayBindings.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: OverlayBinding) => ({
    repoUid: s.repo || parentUidOf(s.uid),
    overlay: s.overlay?.uid ?? "",
    tags: [...s.tags],
  }),
  outputsOf: (s, inputs) => ({
    ...inputs,
    tags: [...s.tags],
    uid: s.uid,
    overlayUid: s.overlay?.uid ?? "",
    overlayName: s.overlay?.name ?? "",
  }),
});
