import { z } from "zod";
import { Uid } from "./common.js";

// The published `Subscription` (events/v2beta1/subscriptions.proto): a webhook sink under a group.
// No update rpc: a new sink is a new subscription.

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Whether a sink URL is one the service takes: https, or (a decision recorded in
 * docs/contract-decisions.md) http on a loopback host, so that a local receiver can be tested
 * against the emulator.
 *
 * @example
 * sinkProblem("http://example.com/hook");  // "must use the https scheme (http only on a loopback host)"
 * sinkProblem("http://127.0.0.1:8080/");   // undefined
 */
export function sinkProblem(sink: string): string | undefined {
  let url: URL;
  try {
    url = new URL(sink);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK_HOST.test(url.hostname)) return undefined;
  return "must use the https scheme (http only on a loopback host)";
}

/**
 * A subscription as read.
 *
 * @example
 * const s = Subscription.parse({ uid, sink: "https://hooks.example.com/irv" });
 */
export const Subscription = z.object({ uid: Uid, sink: z.string() });
/**
 * A webhook subscription.
 *
 * @example
 * const s: Subscription = await client.subscriptions.get(uid);
 */
export type Subscription = z.infer<typeof Subscription>;

/**
 * Body of `POST /events/<version>/subscriptions/<group_uid>`.
 *
 * @example
 * SubscriptionCreate.parse({ sink: "https://hooks.example.com/irv" });
 */
export const SubscriptionCreate = z.object({
  sink: z.string().superRefine((v, ctx) => {
    const problem = sinkProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});
/**
 * Body of a subscription create.
 *
 * @example
 * await client.subscriptions.create(orgUid, { sink: "https://hooks.example.com/irv" });
 */
export type SubscriptionCreate = z.infer<typeof SubscriptionCreate>;
