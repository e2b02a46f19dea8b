export {
  ApiError,
  type ApiErrorInit,
  ConfigurationError,
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
export { redactSecrets } from "./redact.js";
