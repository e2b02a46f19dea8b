export type { ApiErrorInit, RequestSummary } from "./api-error.js";
export {
  ApiError,
  ConfigurationError,
  InvalidArgumentError,
  InvalidResponseError,
  IrvError,
  NetworkError,
} from "./api-error.js";
export type { CodeName, CodeNumber } from "./codes.js";
export { Code, codeForHttpStatus, codeName, ERROR_DOMAIN, httpStatusForCode } from "./codes.js";
export type { FailureCause, FailureHint } from "./failure-cause.js";
export { classifyFailure } from "./failure-cause.js";
export { MIN_REDACTED_LENGTH, redactError, redactSecrets, redactValues } from "./redact.js";
