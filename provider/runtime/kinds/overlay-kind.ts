import { z } from "zod";
import type { Overlay } from "../../../sdk/index.js";
import { OverlayCreateSchema, OverlaySchema } from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { deleteWhenEmpty, OVERLAY_PARENT } from "./delete-group.js";
import { nameInput, uidInput } from "./inputs.js";
import { parentUidOf } from "./parent-uid.js";

/**
 * Inputs of `irv.registry.Overlay`: a group, a name, and the packages it adds (`config.contents.packages`,
 * at least one: the only part of the config the service accepts).
 *
 * @example
 * OverlayInputs.parse({ parentUid: orgUid, name: "debug-tools", config: { contents: { packages: ["curl"] } } });
 */
export const OverlayInputs = z.object({
  parentUid: uidInput("the uid of the group the overlay is in"),
  name: nameInput("the overlay name"),
  config: OverlayCreateSchema.shape.config,
});

/**
 * `irv.registry.Overlay`: a reusable package set under a group. The service has no update, so every
 * change replaces it; a new config under the same name deletes the old overlay first (a name is
 * unique in its group), which needs its bindings gone first: a binding that names the overlay by
 * `overlay.uid` is replaced with it.
 *
 * @example
 * makeProvider(overlayKind, getClient);
 */
export const overlayKind = defineKind({
  type: "Overlay",
  singular: "overlay",
  inputs: OverlayInputs,
  inputKeys: ["parentUid", "name", "config"],
  replaceKeys: ["parentUid", "name"],
  // Not a replace key: a replacement that keeps the group and the name deletes the old one first.
  replacePaths: ["config"],
  mutableKeys: [],
  outputs: OverlaySchema.pick({ uid: true }),
  create: (client, { parentUid, name, config }) => client.overlays.create(parentUid, { name, config }),
  get: (client, uid) => client.overlays.find(uid),
  update: () => Promise.reject(new Error("overlays are replaced, never updated")),
  // Refused while bound: a binding deleted in the same run (without a dependency on the overlay's
  // uid) goes first.
  delete: (client, uid, state) =>
    deleteWhenEmpty(client, OVERLAY_PARENT, uid, typeof state.name === "string" ? state.name : uid),
  inputsOf: (s: Overlay) => ({
    parentUid: parentUidOf(s.uid),
    name: s.name,
    config: { contents: { packages: [...(s.config.contents?.packages ?? [])] } },
  }),
  outputsOf: (s) => ({
    parentUid: parentUidOf(s.uid),
    name: s.name,
    config: { contents: { packages: [...(s.config.contents?.packages ?? [])] } },
    uid: s.uid,
  }),
});
