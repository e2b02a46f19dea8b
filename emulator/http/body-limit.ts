import type { IncomingMessage } from "node:http";

/**
 * The largest request body (bigger → code 3).
 *
 * @example
 * BODY_LIMIT; // 1048576
 */
export const BODY_LIMIT = 1024 * 1024;

/**
 * How much of a refused, too large body is read and thrown away before answering (64 MiB). A body
 * announced larger than this is answered at once, and the client may see a reset instead.
 *
 * @example
 * DRAIN_LIMIT / BODY_LIMIT; // 64
 */
export const DRAIN_LIMIT = 64 * 1024 * 1024;

// A client that trickles its body is not waited for forever.
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Whether fastify refused a body for its size.
 *
 * @example
 * if (isBodyTooLarge(error)) await discardRest(req.raw);
 */
export function isBodyTooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "FST_ERR_CTP_BODY_TOO_LARGE";
}

/**
 * Reads and discards the rest of a request body, so that the answer sent afterwards reaches the
 * client. Answering at once and closing the connection (what fastify does) leaves the client's
 * unread bytes in the kernel, which then resets the connection: the client, still writing, gets
 * EPIPE or ECONNRESET instead of the answer (about one 10 MB request in four did). Resolves when the
 * body has ended, after {@link DRAIN_LIMIT} bytes, after a timeout, or when the client goes away.
 *
 * @example
 * app.setErrorHandler(async (error, req, reply) => {
 *   if (isBodyTooLarge(error)) await discardRest(req.raw);
 *   return reply.code(400).send({ code: 3 });
 * });
 */
export function discardRest(req: IncomingMessage, limit = DRAIN_LIMIT): Promise<void> {
  const announced = Number(req.headers["content-length"]);
  if (req.complete || req.destroyed || announced > limit) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      req.off("data", onData).off("end", done).off("close", done).off("error", done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) done();
    };
    const timer = setTimeout(done, DRAIN_TIMEOUT_MS);
    req.on("data", onData).on("end", done).on("close", done).on("error", done);
    req.resume();
  });
}
