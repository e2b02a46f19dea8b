export type { GetSubscriptionsResult } from "./get-subscriptions.js";
export {
  getSubscription,
  getSubscriptionOutput,
  getSubscriptions,
  getSubscriptionsOutput,
} from "./get-subscriptions.js";
export type { SubscriptionArgs } from "./subscription.js";
export { Subscription } from "./subscription.js";
