import type { FastifyRequest } from "fastify";
import type { Caller } from "../auth/index.js";

/**
 * Which part of the server a route belongs to:
 * - `api`: the v2beta1 and v1 API — counted, faultable, bearer token required;
 * - `sts`: token exchange — counted, faultable, authenticated by the workload token itself;
 * - `control`: `/_emulator/*` — admin token required, never faulted or counted;
 * - `issuer`: the local OIDC issuer — open, never faulted or counted.
 *
 * @example
 * app.get(`${ctx.authPath}/sts/exchange`, { config: { surface: "sts" } }, handler);
 */
export type Surface = "api" | "sts" | "control" | "issuer";

declare module "fastify" {
  interface FastifyContextConfig {
    surface?: Surface;
  }
  interface FastifyRequest {
    /** The authenticated caller of an `api` or `control` route. */
    caller: Caller | undefined;
    /** Set when an injected reset strikes after the handler. */
    resetAfter: boolean;
  }
}

/**
 * The caller of an authenticated route (set by the onRequest hook).
 *
 * @example
 * service.get(callerOf(req), "groups", uid);
 */
export function callerOf(req: FastifyRequest): Caller {
  if (req.caller === undefined) throw new Error("route without authentication");
  return req.caller;
}
