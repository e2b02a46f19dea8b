import type { FastifyReply, FastifyRequest } from "fastify";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Marks a reply as JSON and hands back the text to send: handlers return the JSON the service
 * built, which fastify sends as it is (no second serialisation).
 *
 * @example
 * app.get(path, (req, reply) => replyJson(reply, service.get(caller, "groups", uid)));
 */
export function replyJson(reply: FastifyReply, body: string): string {
  reply.header("content-type", JSON_TYPE);
  return body;
}

/**
 * The uid of a wildcard route (`…/<collection>/*`): uids hold slashes.
 *
 * @example
 * app.get("/iam/v2beta1/groups/*", (req) => uidParam(req));
 */
export function uidParam(req: FastifyRequest): string {
  return (req.params as { "*": string })["*"];
}
