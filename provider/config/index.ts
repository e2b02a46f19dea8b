export {
  clientFor,
  type IrvSettings,
  insecureHttpAllowed,
  resolveSettings,
  SETTINGS,
  tokenSourceFor,
} from "./settings.js";
export {
  chooseWorkloadToken,
  explainWorkloadFailures,
  type WorkloadTokenKind,
  type WorkloadTokenSettings,
  workloadTokenOptions,
} from "./workload-token.js";
