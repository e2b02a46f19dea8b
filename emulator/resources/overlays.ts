import { failedPrecondition, invalidArgument } from "../core/index.js";
import type { KindHooks } from "./kind-context.js";
import { MAX_LISTED_VIOLATIONS } from "./limits.js";
import { populated, wireOverlay } from "./overlay-config.js";

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Overlays (published registry/v2beta1/overlays.proto): a name unique in the group and a config of
 * the custom overlay's shape of which only `contents.packages` is accepted, at least one; any other
 * populated config field is code 3 naming it (fields at their defaults, as a client that read an
 * overlay back sends them, are not populated). Stored and answered in the gateway's form, with no
 * timestamps (the message has none). An overlay still bound to a repo is not deleted (code 9).
 *
 * @example
 * OVERLAY_HOOKS.prepare?.({ name: "debug", config: { contents: { packages: ["curl"] }, environment: {} } });
 * // { name: "debug", config: { contents: { packages: ["curl"] } } }
 */
export const OVERLAY_HOOKS: KindHooks = {
  prepare(body) {
    if (!isObject(body.config)) return body;
    const config = populated(body.config);
    const others = [
      ...Object.keys(config)
        .filter((k) => k !== "contents")
        .map((k) => `config.${k}`),
      ...Object.keys(isObject(config.contents) ? config.contents : {})
        .filter((k) => k !== "packages")
        .map((k) => `config.contents.${k}`),
    ];
    if (others.length > 0) {
      throw invalidArgument(
        others.map((field) => ({
          field,
          description: "is not accepted on an overlay: only config.contents.packages may be set",
        })),
      );
    }
    return { ...body, config };
  },
  stored: (uid, _parentUid, f) => ({ uid, name: f.name, config: wireOverlay(f.config as Fields) }),
  beforeDelete(ctx, _caller, uid) {
    const bindings = ctx.table
      .referringToRole(uid, MAX_LISTED_VIOLATIONS + 1)
      .filter((r) => r.kind === "overlayBindings");
    if (bindings.length === 0) return;
    throw failedPrecondition(
      `overlay ${JSON.stringify(uid)} is still bound to ${bindings.length > MAX_LISTED_VIOLATIONS ? "more repos than listed" : "a repo"}; delete its overlay bindings first`,
      bindings.slice(0, MAX_LISTED_VIOLATIONS).map((b) => ({
        type: "RESOURCE_IN_USE",
        subject: b.uid,
        description: `overlay is bound to repo ${b.parentUid} by overlay binding ${b.uid}`,
      })),
    );
  },
};
