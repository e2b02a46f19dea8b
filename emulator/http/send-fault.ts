import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { Code, httpStatusForCode } from "pulumi-irv/sdk";
import { ApiFault, invalidArgument } from "../core/index.js";
import { BODY_LIMIT } from "./body-limit.js";
import { replyJson } from "./reply-json.js";

/**
 * Answers an AIP-193 error: the grpc-gateway HTTP status of the code, the body with ErrorInfo and
 * RequestInfo, `x-request-id`, and the fault's own headers (Retry-After). `status` overrides the
 * HTTP status (405 for a wrong method).
 *
 * @example
 * sendFault(reply, notFound("group", uid));
 */
export function sendFault(reply: FastifyReply, fault: ApiFault, status?: number): FastifyReply {
  for (const [k, v] of Object.entries(fault.headers)) reply.header(k, v);
  reply.code(status ?? httpStatusForCode(fault.code)).header("x-request-id", reply.request.id);
  return reply.send(replyJson(reply, JSON.stringify(fault.toBody(reply.request.id))));
}

/**
 * Maps anything thrown while handling a request to an {@link ApiFault}: our own faults as they are;
 * framework errors about the request (body too large, bad JSON, bad content type, bad URL) to code 3;
 * anything else is a bug of the emulator and becomes code 13.
 *
 * @example
 * app.setErrorHandler((e, req, reply) => sendFault(reply, toFault(e, req)));
 */
export function toFault(error: unknown, request: FastifyRequest, onBug?: (e: unknown) => void): ApiFault {
  if (error instanceof ApiFault) return error;
  const e = error as Partial<FastifyError> & Error;
  switch (e.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return invalidArgument([
        { field: "body", description: `is larger than the limit of ${BODY_LIMIT / 1024 / 1024} MiB` },
      ]);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_TYPE":
      return invalidArgument([{ field: "Content-Type", description: "must be application/json" }]);
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return invalidArgument([{ field: "body", description: "is empty but Content-Type says JSON" }]);
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return invalidArgument([{ field: "Content-Length", description: "does not match the body" }]);
  }
  const status = typeof e.statusCode === "number" ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return invalidArgument(
      [{ field: "request", description: e.message }],
      `request ${request.method} ${request.url} is malformed`,
    );
  }
  onBug?.(error);
  return new ApiFault(Code.INTERNAL, "the emulator failed to handle this request (a bug: please report it)");
}
