export type { PulumiAt } from "../pulumi-cli/index.js";
// The stack's config and state through the `pulumi` command, for the policy pack (one runner with
// the CLI's access review).
export { exportStack, runPulumi, stackConfig } from "../pulumi-cli/index.js";
export { explainFailure } from "./explain-failure.js";
export type { NeededCapabilities } from "./needed-capabilities.js";
export { neededCapabilities } from "./needed-capabilities.js";
export type { RequestLimitSettings, RequestLimits } from "./request-limits.js";
export { REQUEST_LIMIT_SETTINGS, rateLimiterFor, requestLimitsOf } from "./request-limits.js";
export type { IrvSettings } from "./settings.js";
export {
  clientFor,
  insecureHttpAllowed,
  resolveSettings,
  SETTINGS,
  timeoutMsOf,
  tokenSourceFor,
} from "./settings.js";
export type { WorkloadTokenKind, WorkloadTokenSettings } from "./workload-token.js";
export { chooseWorkloadToken, explainWorkloadFailures, workloadTokenOptions } from "./workload-token.js";
