export { type AppContext, type AuthServices, createAppContext } from "./app-context.js";
export { BODY_LIMIT, buildApp } from "./build-app.js";
export { type FaultAction, FaultInjector } from "./fault-injector.js";
export { callerOf, type Surface } from "./request-context.js";
export { RequestStats, type StatsSnapshot } from "./request-stats.js";
