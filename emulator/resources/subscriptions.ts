import type { KindHooks } from "./kind-context.js";

/**
 * Subscriptions as the published `Subscription` (events/v2beta1/subscriptions.proto): a uid and a
 * sink, nothing else (no timestamps). The sink rule is the create schema's: https, or http on a
 * loopback host so that a local receiver can be tested (docs/contract-decisions.md).
 *
 * @example
 * SUBSCRIPTION_HOOKS.stored?.(uid, groupUid, { sink: "https://hooks.example.com" }, now);
 * // { uid, sink: "https://hooks.example.com" }
 */
export const SUBSCRIPTION_HOOKS: KindHooks = {
  stored: (uid, _parentUid, f) => ({ uid, sink: f.sink }),
  describe: (_ctx, row) => `subscription to ${JSON.parse(row.data).sink as string}`,
};
