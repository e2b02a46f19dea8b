import { setTimeout as sleep } from "node:timers/promises";
import { Code } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { ApiFault } from "../core/index.js";
import type { AppContext } from "./app-context.js";

/**
 * One call of the API or the STS, as either transport (HTTP/JSON or gRPC) sees it before its handler.
 *
 * @example
 * const call: ApiCall = { surface: "api", method: "GET", pattern: "/iam/v2beta1/groups/*", updateMask: undefined, authorization };
 */
export interface ApiCall {
  surface: "api" | "sts";
  /** HTTP method, or `GRPC` for a gRPC call. */
  method: string;
  /** The route pattern (HTTP) or the rpc's path `/package.Service/Method` (gRPC). */
  pattern: string;
  /** The update mask as sent, for the stats. */
  updateMask: string | undefined;
  /** The `authorization` header or metadata. */
  authorization: string | undefined;
}

/**
 * What the call may do next: its authenticated caller (API calls), and whether an injected reset
 * strikes before the handler (`before`: drop the connection now) or after it (`after`: run the
 * handler, then drop the connection instead of answering).
 *
 * @example
 * const { caller, reset } = await admitCall(ctx, call);
 */
export interface Admission {
  caller: Caller | undefined;
  reset: "before" | "after" | undefined;
}

/**
 * The steps every API and STS call takes before its handler, the same for both transports: count it,
 * roll the injected faults (latency, 503, 429, resets), authenticate the bearer token and apply the
 * caller's rate limit. A refusal is thrown as the {@link ApiFault} both transports answer with.
 *
 * @example
 * const { caller } = await admitCall(ctx, { surface: "api", method: "GET", pattern, updateMask: undefined, authorization });
 * ctx.service.get(caller!, "groups", uid);
 */
export async function admitCall(ctx: AppContext, call: ApiCall): Promise<Admission> {
  ctx.stats.record(call.method, call.pattern, call.updateMask);
  let reset: Admission["reset"];
  if (ctx.faults.active) {
    const spec = ctx.faults.spec;
    if (spec.latencyMs > 0) await sleep(spec.latencyMs);
    const action = ctx.faults.decide();
    const retry = { "retry-after": String(spec.retryAfterSeconds) };
    if (action === "unavailable") {
      throw new ApiFault(
        Code.UNAVAILABLE,
        "injected fault: the service is unavailable, retry later",
        [],
        retry,
      );
    }
    if (action === "exhausted") {
      throw new ApiFault(
        Code.RESOURCE_EXHAUSTED,
        "injected fault: too many requests, retry later",
        [],
        retry,
      );
    }
    if (action === "reset-before") return { caller: undefined, reset: "before" };
    if (action === "reset-after") reset = "after";
  }
  let caller: Caller | undefined;
  if (call.surface === "api") {
    const principal = await ctx.auth.apiTokens.authenticate(call.authorization);
    caller = ctx.service.callerOf(principal);
    ctx.rateLimiter.admit(principal);
  }
  return { caller, reset };
}
