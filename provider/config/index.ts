export { explainFailure } from "./explain-failure.js";
export {
  REQUEST_LIMIT_SETTINGS,
  type RequestLimitSettings,
  type RequestLimits,
  rateLimiterFor,
  requestLimitsOf,
} from "./request-limits.js";
export {
  clientFor,
  type IrvSettings,
  insecureHttpAllowed,
  resolveSettings,
  SETTINGS,
  timeoutMsOf,
  tokenSourceFor,
} from "./settings.js";
export {
  chooseWorkloadToken,
  explainWorkloadFailures,
  type WorkloadTokenKind,
  type WorkloadTokenSettings,
  workloadTokenOptions,
} from "./workload-token.js";
