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
  // Each row's target, parsed once while its data stays the same: a write with subscriptions pays
  // one indexed read by kind, not a JSON parse per subscription.
  const parsed = new Map<string, { data: string; target: SubscriptionTarget }>();
  const targetOf = (row: { uid: string; parentUid: string; data: string }): SubscriptionTarget => {
    const known = parsed.get(row.uid);
    if (known !== undefined && known.data === row.data && known.target.group === row.parentUid)
      return known.target;
    const target = {
      uid: row.uid,
      group: row.parentUid,
      sink: String((JSON.parse(row.data) as { sink?: unknown }).sink ?? ""),
    };
    parsed.set(row.uid, { data: row.data, target });
    return target;
  };
  return {
    // One indexed read by kind: with no subscription, a write pays only this.
    covering: (groupUid) => {
      const rows = table.all(SUBSCRIPTIONS_KIND);
      if (parsed.size > rows.length) parsed.clear();
      return rows.filter((row) => isSelfOrDescendant(groupUid, row.parentUid)).map(targetOf);
    },
    exists: (uid) => table.has(SUBSCRIPTIONS_KIND, uid),
  };
}
