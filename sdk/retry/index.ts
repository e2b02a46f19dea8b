export {
  DEFAULT_RETRY_POLICY,
  NO_RETRY,
  type RetryDecision,
  type RetryInput,
  type RetryPolicy,
  shouldRetry,
} from "./should-retry.js";
