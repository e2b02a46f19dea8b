export type { StatusBody } from "./api-fault.js";
export {
  ApiFault,
  failedPrecondition,
  invalidArgument,
  notFound,
  permissionDenied,
  unauthenticated,
} from "./api-fault.js";
export type { FaultSpec } from "./fault-spec.js";
export { formatFaultSpec, hasFaults, NO_FAULTS, parseFaultSpec } from "./fault-spec.js";
export type { JsonNode } from "./json-value.js";
export { findInJson, isContainer, isWellFormed } from "./json-value.js";
export type { RateLimitSpec } from "./rate-limit-spec.js";
export { formatRateLimit, parseRateLimit } from "./rate-limit-spec.js";
export type { Clock } from "./timestamps.js";
export { formatTimestamp, nextUpdateTime } from "./timestamps.js";
export {
  ancestorUid,
  isSelfOrDescendant,
  newChildUid,
  newRoleUid,
  newRootUid,
  ROOT_UID_PATTERN,
} from "./uids.js";
