export {
  ApiError,
  type ApiErrorInit,
  ConfigurationError,
  InvalidArgumentError,
  InvalidResponseError,
  IrvError,
  NetworkError,
  type RequestSummary,
} from "./api-error.js";
export {
  Code,
  type CodeName,
  type CodeNumber,
  codeForHttpStatus,
  codeName,
  ERROR_DOMAIN,
  httpStatusForCode,
} from "./codes.js";
export { classifyFailure, type FailureCause, type FailureHint } from "./failure-cause.js";
export { MIN_REDACTED_LENGTH, redactError, redactSecrets, redactValues } from "./redact.js";
