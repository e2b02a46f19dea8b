export {
  AdaptiveRateLimiter,
  type LimiterTurn,
  type RateLimiterOptions,
  type RateLimiterState,
} from "./adaptive-rate-limiter.js";
export { IrvClient, type IrvClientOptions } from "./irv-client.js";
export { LOST_CREATE_CLOCK_SKEW_MS, lostCreateMismatch, type SentCreate } from "./lost-create.js";
export {
  type CallOptions,
  type CreateOptions,
  type ReadOnlyResourceClient,
  ResourceClient,
} from "./resource-client.js";
export {
  HttpTransport,
  type TransportEvent,
  type TransportOptions,
  type TransportRequest,
} from "./transport.js";
export { FLAT_UID_PATTERN, type UidForm, uidFormOf, uidPath, uidProblem } from "./uid-path.js";
