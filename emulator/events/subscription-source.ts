import { isSelfOrDescendant } from "../core/index.js";
import type { ResourceTable } from "../store/index.js";

/**
 * A subscription as deliveries need it.
 *
 * @example
 * const s: SubscriptionTarget = { uid: `${org}/0123456789abcdef`, group: org, sink: "http://127.0.0.1:9000/" };
 */
export interface SubscriptionTarget {
  uid: string;
  /** The group it was created under: its events are that group's and those below it. */
  group: string;
  sink: string;
}

/**
 * Where deliveries read the subscriptions from.
 *
 * @example
 * const source: SubscriptionSource = { covering: () => [], exists: () => false };
 */
export interface SubscriptionSource {
  /** The subscriptions on `groupUid` or on a group above it. */
  covering(groupUid: string): SubscriptionTarget[];
  /** Whether a subscription still exists (an attempt after its deletion is not made). */
  exists(uid: string): boolean;
}

/**
 * The kind name under which the store keeps subscriptions.
 *
 * @example
 * table.all(SUBSCRIPTIONS_KIND);
 */
export const SUBSCRIPTIONS_KIND = "subscriptions";

/**
 * The subscriptions of the emulator's store (`POST /events/v2beta1/subscriptions/{group}`).
 *
 * @example
 * const source = storedSubscriptions(service.table);
 * source.covering(teamUid).map((s) => s.sink);
 */
export function storedSubscriptions(table: ResourceTable): SubscriptionSource {
  return {
    // One indexed read by kind: with no subscription, a write pays only this.
    covering: (groupUid) =>
      table
        .all(SUBSCRIPTIONS_KIND)
        .filter((row) => isSelfOrDescendant(groupUid, row.parentUid))
        .map((row) => ({
          uid: row.uid,
          group: row.parentUid,
          sink: String((JSON.parse(row.data) as { sink?: unknown }).sink ?? ""),
        })),
    exists: (uid) => table.has(SUBSCRIPTIONS_KIND, uid),
  };
}
