import type * as pulumi from "@pulumi/pulumi";
import { byUid, dataSource, toQuery } from "../data-sources/index.js";
import type { ByUid, InputsOf, ListFilter, ListFilterInput, Subscription } from "../types/index.js";

/**
 * Result of {@link getSubscriptions}.
 *
 * @example
 * const { subscriptions }: irv.events.GetSubscriptionsResult = await irv.events.getSubscriptions({ childrenOf: orgUid });
 */
export interface GetSubscriptionsResult {
  subscriptions: Subscription[];
}

const list = dataSource("irv.events.getSubscriptions", async (client, filter: ListFilter) => ({
  subscriptions: await client.subscriptions.collectParallel(toQuery(filter)),
}));
const one = byUid("irv.events.getSubscription", (client) => client.subscriptions);

/**
 * Every webhook subscription matching the filter (all pages).
 *
 * @example
 * const { subscriptions } = await irv.events.getSubscriptions({ descendantsOf: orgUid });
 */
export function getSubscriptions(filter: ListFilter = {}): Promise<GetSubscriptionsResult> {
  return list.get(filter);
}

/**
 * {@link getSubscriptions} taking Inputs and returning an Output.
 *
 * @example
 * export const sinks = irv.events.getSubscriptionsOutput({ childrenOf: orgUid }).subscriptions.apply((l) => l.map((s) => s.sink));
 */
export function getSubscriptionsOutput(filter: ListFilterInput = {}): pulumi.Output<GetSubscriptionsResult> {
  return list.output(filter);
}

/**
 * One subscription by uid.
 *
 * @example
 * const hook = await irv.events.getSubscription({ uid: hookUid });
 */
export function getSubscription(args: ByUid): Promise<Subscription> {
  return one.get(args);
}

/**
 * {@link getSubscription} taking Inputs and returning an Output.
 *
 * @example
 * export const sink = irv.events.getSubscriptionOutput({ uid: hook.uid }).sink;
 */
export function getSubscriptionOutput(args: InputsOf<ByUid>): pulumi.Output<Subscription> {
  return one.output(args);
}
