export type { CloudEvent } from "./cloud-event.js";
export { binaryModeHeaders, dataDigest } from "./cloud-event.js";
export type { DeliveriesOptions } from "./deliveries.js";
export { Deliveries } from "./deliveries.js";
export type {
  DeliveryAttempt,
  DeliveryFilter,
  DeliveryOutcome,
  DeliveryRecord,
} from "./delivery-log.js";
export { DeliveryLog } from "./delivery-log.js";
export type { DeliveryPolicy } from "./delivery-policy.js";
export {
  backoffMs,
  DEFAULT_DELIVERY_POLICY,
  isRetryableStatus,
  MAX_DELIVERY_RETRIES,
  MAX_DELIVERY_TIMEOUT_MS,
  requestedPauseMs,
  retryDelayMs,
} from "./delivery-policy.js";
export type { WriteEvent, WriteVerb } from "./event-annotations.js";
export { EventAnnotations } from "./event-annotations.js";
export type { BodyRule, GroupFrom } from "./event-rules.js";
export { BODY_RULES, bodyRule, eventGroup } from "./event-rules.js";
export type { SubscriptionSource, SubscriptionTarget } from "./subscription-source.js";
export { SUBSCRIPTIONS_KIND, storedSubscriptions } from "./subscription-source.js";
