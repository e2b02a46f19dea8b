/**
 * Arguments of a lookup by uid (`irv.registry.getTag`, `irv.events.getSubscription`, …). A plain
 * interface in the public types, so that a program's declarations never reach the sdk's zod types.
 *
 * @example
 * const args: ByUid = { uid: overlayUid };
 */
export interface ByUid {
  /** The resource's uid. */
  uid: string;
}
