/**
 * `pulumi-irv/sdk`: the typed client of the IRV v2beta1 API — zod wire schemas, undici transport,
 * token sources (static, identity exchange, CI workload tokens), AIP-193 errors, AIP-194 retries,
 * pagination.
 *
 * @example
 * import { IrvClient, exchangeToken } from "pulumi-irv/sdk";
 */
export * from "./auth/index.js";
export * from "./client/index.js";
export * from "./errors/index.js";
export * from "./http/index.js";
export * from "./pagination/index.js";
export * from "./patterns/index.js";
export * from "./retry/index.js";
export * from "./schemas/index.js";
export * from "./update-mask/index.js";
