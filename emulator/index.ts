/**
 * `pulumi-irv-emulator`: a local, faithful implementation of the IRV v2beta1 API for tests and demos.
 *
 * @example
 * import { startEmulator } from "pulumi-irv-emulator";
 * const emu = await startEmulator();
 * // … point a client or a Pulumi program at emu.baseUrl with emu.adminToken …
 * await emu.close();
 */
export type { WorkloadTokenRequest } from "./auth/index.js";
export type { Clock, FaultSpec, RateLimitSpec } from "./core/index.js";
export { formatFaultSpec, formatRateLimit, NO_FAULTS, parseFaultSpec, parseRateLimit } from "./core/index.js";
export type { DeliveryAttempt, DeliveryFilter, DeliveryOutcome, DeliveryRecord } from "./events/index.js";
export { DEFAULT_DELIVERY_POLICY } from "./events/index.js";
export type { DeliveryCounts, StatsSnapshot } from "./http/index.js";
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PAGE_TOKEN_TTL_MS } from "./lists/index.js";
export type { EmulatorOptions } from "./options.js";
export { AUTH_PATH, ISSUER_PATH } from "./options.js";
export type { GroupFixture, SeedCounts } from "./resources/index.js";
export { Fixtures, MAX_LISTED_VIOLATIONS } from "./resources/index.js";
export type { EmulatorHandle, ReadyInfo } from "./start-emulator.js";
export { startEmulator } from "./start-emulator.js";
export type { ReceivedEvent, WebhookSink, WebhookSinkOptions } from "./testing/index.js";
export { startWebhookSink } from "./testing/index.js";
