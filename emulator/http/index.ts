export { type AppContext, type AuthServices, createAppContext } from "./app-context.js";
export { BODY_LIMIT, DRAIN_LIMIT, discardRest, isBodyTooLarge } from "./body-limit.js";
export { buildApp } from "./build-app.js";
export { type FaultAction, FaultInjector } from "./fault-injector.js";
export { bodyViolation, MAX_BODY_DEPTH, registerJsonBody } from "./json-body.js";
export { RateLimiter, type RateLimiterOptions } from "./rate-limiter.js";
export { callerOf, type Surface } from "./request-context.js";
export { RequestStats, type StatsSnapshot } from "./request-stats.js";
