export type { RetryDecision, RetryInput, RetryPolicy } from "./should-retry.js";
export { DEFAULT_RETRY_POLICY, NO_RETRY, shouldRetry } from "./should-retry.js";
