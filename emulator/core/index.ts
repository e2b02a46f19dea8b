export {
  ApiFault,
  failedPrecondition,
  invalidArgument,
  notFound,
  permissionDenied,
  type StatusBody,
  unauthenticated,
} from "./api-fault.js";
export { type FaultSpec, formatFaultSpec, hasFaults, NO_FAULTS, parseFaultSpec } from "./fault-spec.js";
export { findInJson, isContainer, isWellFormed, type JsonNode } from "./json-value.js";
export { formatRateLimit, parseRateLimit, type RateLimitSpec } from "./rate-limit-spec.js";
export { type Clock, formatTimestamp, nextUpdateTime } from "./timestamps.js";
export {
  ancestorUid,
  isSelfOrDescendant,
  newChildUid,
  newRoleUid,
  newRootUid,
  ROOT_UID_PATTERN,
} from "./uids.js";
