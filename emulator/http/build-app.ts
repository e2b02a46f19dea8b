import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import Fastify from "fastify";
import type { ApiVersion } from "pulumi-irv/sdk";
import { Code } from "pulumi-irv/sdk";
import { ApiFault, invalidArgument, notFound } from "../core/index.js";
import { RULES_BY_COLLECTION } from "../resources/index.js";
import { admitCall } from "./admit-call.js";
import { registerApiRoutes } from "./api-routes.js";
import type { AppContext } from "./app-context.js";
import { BODY_LIMIT, discardRest, isBodyTooLarge } from "./body-limit.js";
import { registerControlRoutes } from "./control-routes.js";
import { cachedHttpDate } from "./http-date.js";
import { registerIssuerRoutes } from "./issuer-routes.js";
import { registerJsonBody } from "./json-body.js";
import "./request-context.js";
import { sendFault, toFault } from "./send-fault.js";

/**
 * A certificate and its key, PEM.
 *
 * @example
 * const tls: TlsFiles = { cert: readFileSync("cert.pem"), key: readFileSync("key.pem") };
 */
export interface TlsFiles {
  cert: string | Buffer;
  key: string | Buffer;
}

/**
 * Builds the fastify app (served over TLS when `tls` is given): JSON-only bodies up to 1 MiB (a larger one is read to its end, up to a
 * cap, and answered code 3), request ids, stats and faults for the API and STS, bearer
 * authentication, AIP-193 errors for everything that goes wrong (including unknown routes and
 * framework errors), and the routes of every surface.
 *
 * @example
 * const app = buildApp(ctx);
 * await app.listen({ host: "127.0.0.1", port: 0 });
 */
export function buildApp(ctx: AppContext, tls?: TlsFiles): FastifyInstance {
  const idPrefix = randomBytes(4).toString("hex");
  let nextId = 0;
  const httpDate = cachedHttpDate();
  const app = Fastify({
    logger: ctx.log ? { level: "info", stream: process.stderr } : false,
    bodyLimit: BODY_LIMIT,
    genReqId: () => `${idPrefix}-${(++nextId).toString(36)}`,
    // Uids hold slashes and grow with depth: allow long wildcard values.
    routerOptions: { maxParamLength: 8192 },
    return503OnClosing: false,
    forceCloseConnections: true,
    // With TLS the port offers HTTP/2 (gRPC, handed over by the protocol dispatch) and HTTP/1.1.
    ...(tls === undefined
      ? {}
      : { https: { cert: tls.cert, key: tls.key, ALPNProtocols: ["h2", "http/1.1"] } }),
    // Router-level failures (a malformed URL) answer in the same AIP-193 shape as everything else.
    frameworkErrors: (error, req, reply) => {
      sendFault(reply, toFault(error, req));
    },
    // So do requests Node's HTTP parser refuses before any route sees them (a head over 16 KiB, raw
    // bytes in the request line): fastify's default answers those in its own {error, statusCode} shape.
    clientErrorHandler: (error, socket) => {
      if ((error as NodeJS.ErrnoException).code === "ECONNRESET" || socket.destroyed) return;
      if (socket.writable) socket.write(clientErrorResponse(error, `${idPrefix}-${(++nextId).toString(36)}`));
      socket.destroy(error);
    },
  });
  app.decorateRequest("caller", undefined);
  app.decorateRequest("resetAfter", false);

  registerJsonBody(app);

  app.addHook("onRequest", async (req, reply) => {
    reply.header("x-request-id", req.id);
    // The Date header tells the service's time, as createTime does: clients measure the offset
    // between the two clocks from it (pulumi-irv recover), so a moved clock moves it too.
    if (ctx.clock !== undefined) reply.header("date", httpDate(ctx.clock()));
    // Read once: fastify's `routeOptions` getter builds a new object of a dozen fields each time.
    const route = req.routeOptions;
    const surface = route.config.surface;
    if (surface === "api" || surface === "sts") {
      const q = req.query as Record<string, unknown>;
      const m = q.updateMask ?? q.update_mask;
      const admitted = await admitCall(ctx, {
        surface,
        method: req.method,
        pattern: route.url ?? req.url,
        updateMask: typeof m === "string" ? m : undefined,
        authorization: req.headers.authorization,
      });
      if (admitted.reset === "before") {
        reply.hijack();
        req.raw.socket.destroy();
        return;
      }
      if (admitted.reset === "after") req.resetAfter = true;
      if (admitted.caller !== undefined) req.caller = admitted.caller;
    }
    if (surface === "control") {
      const principal = await ctx.auth.apiTokens.authenticate(req.headers.authorization);
      if (principal.kind !== "admin") {
        throw new ApiFault(Code.PERMISSION_DENIED, "the control API needs the admin token");
      }
      req.caller = ctx.service.callerOf(principal);
    }
  });

  // A callback hook, not an async one: it runs for every answer, and an async hook costs a promise
  // and a turn of the microtask queue each time.
  app.addHook("onSend", (req, _reply, payload, done) => {
    // The handler ran (the change is made); the client sees its connection die instead of the answer.
    if (req.resetAfter) req.raw.socket.destroy();
    done(null, payload);
  });

  app.setErrorHandler(async (error, req, reply) => {
    // The client is still sending: take the rest first, or the answer is lost to a reset.
    if (isBodyTooLarge(error)) await discardRest(req.raw);
    return sendFault(
      reply,
      toFault(error, req, (e) => {
        process.stderr.write(
          `irv-emulator: unexpected error on ${req.method} ${req.routeOptions.url}: ${String((e as Error).stack ?? e)}\n`,
        );
      }),
    );
  });
  app.setNotFoundHandler((req, reply) => notFoundRoute(req, reply));

  registerApiRoutes(app, ctx);
  registerControlRoutes(app, ctx);
  registerIssuerRoutes(app, ctx);
  return app;
}

/** The raw HTTP answer to a request the HTTP parser refused: code 3 under HTTP 400, AIP-193 body. */
function clientErrorResponse(error: Error, requestId: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  const description =
    code === "HPE_HEADER_OVERFLOW"
      ? "the request line and headers are larger than 16 KiB"
      : code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "was not received in time"
        : `is not valid HTTP (${code ?? error.message})`;
  const body = JSON.stringify(invalidArgument([{ field: "request", description }]).toBody(requestId));
  return [
    "HTTP/1.1 400 Bad Request",
    "content-type: application/json; charset=utf-8",
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    "connection: close",
    "",
    body,
  ].join("\r\n");
}

// A known collection with a method it does not offer is "unimplemented" (405 + Allow); anything
// else is an unknown path (404).
function notFoundRoute(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = req.url.split("?")[0] ?? "";
  const m = /^\/([a-z]+)\/(v2beta1|v2)\/([A-Za-z]+)(\/.*)?$/.exec(path);
  const rules = m?.[3] === undefined ? undefined : RULES_BY_COLLECTION.get(m[3]);
  if (
    m !== null &&
    rules !== undefined &&
    rules.spec.domain === m[1] &&
    rules.versions.includes(m[2] as ApiVersion)
  ) {
    const withUid = m[4] !== undefined && m[4] !== "/";
    const allowed = ["GET"];
    if (withUid) {
      if (rules.writes.includes("create")) allowed.push("POST");
      if (rules.writes.includes("update")) allowed.push("PATCH");
      if (rules.writes.includes("delete")) allowed.push("DELETE");
    }
    // The router gave up on an allowed method (a uid past the router's length limit): no such resource.
    if (allowed.includes(req.method))
      return sendFault(reply, notFound(rules.spec.singular, (m[4] ?? "").slice(1)));
    reply.header("allow", allowed.join(", "));
    return sendFault(
      reply,
      new ApiFault(
        Code.UNIMPLEMENTED,
        `${req.method} is not supported on ${path} (allowed: ${allowed.join(", ")})`,
      ),
      405,
    );
  }
  return sendFault(reply, notFound("route", `${req.method} ${path}`));
}
