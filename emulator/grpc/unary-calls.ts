import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from "node:http2";
import type * as grpc from "@grpc/grpc-js";

/**
 * The largest request message, as grpc-js's default receive limit (4 MiB), so that a call is refused
 * alike on either path.
 */
const MAX_REQUEST = 4 * 1024 * 1024;

// What grpc-js sends with every answer: the content type, and the encodings it reads (the calls it
// serves itself include compressed ones).
const RESPONSE_HEADERS: OutgoingHttpHeaders = {
  ":status": 200,
  "content-type": "application/grpc+proto",
  "grpc-accept-encoding": "identity,deflate,gzip",
  "grpc-encoding": "identity",
};

/**
 * A gRPC status, as the trailers carry it: the code, its message and any further trailers (the
 * error details).
 *
 * @example
 * const status: UnaryStatus = { code: 5, details: "group not found", metadata };
 */
export interface UnaryStatus {
  code: number;
  details: string;
  metadata?: grpc.Metadata;
}

/**
 * What a unary call ends with: the response message (encoded), or an error status.
 *
 * @example
 * const result: UnaryResult = { message: wireBytes(GroupSchema, group) };
 */
export type UnaryResult =
  | { message: Uint8Array; status?: undefined }
  | { message?: undefined; status: UnaryStatus };

/**
 * The answer to a unary call: the initial metadata, then its {@link UnaryResult}.
 *
 * @example
 * const reply: UnaryReply = { header, message: wireBytes(GroupSchema, group) };
 */
export type UnaryReply = { header: grpc.Metadata } & UnaryResult;

/**
 * Whether {@link serveUnaryCall} can serve this request: one it need not decompress (no
 * `grpc-encoding` but identity) and without a deadline (`grpc-timeout`). Any other goes to grpc-js,
 * which handles both.
 *
 * @example
 * if (servesUnary(headers)) serveUnaryCall(stream, path, run); else grpcJs(stream, headers);
 */
export function servesUnary(headers: IncomingHttpHeaders): boolean {
  const encoding = headers["grpc-encoding"];
  return headers["grpc-timeout"] === undefined && (encoding === undefined || encoding === "identity");
}

/**
 * The request's first `authorization` value, as grpc-js's metadata gives it (a value that is not
 * printable ASCII is dropped), seen as a fetch Headers object sees it (the HTTP route's view): without
 * leading or trailing HTTP whitespace.
 *
 * @example
 * authorizationOf({ authorization: "Bearer abc " }); // "Bearer abc"
 */
export function authorizationOf(headers: IncomingHttpHeaders): string | undefined {
  const raw = headers.authorization as string | string[] | undefined;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^[ -~]*$/.test(value)) return undefined;
  return value.replace(/^[\t ]+|[\t ]+$/g, "");
}

/**
 * Serves one unary call of the API on its HTTP/2 stream with the gRPC protocol, as grpc-js would:
 * reads the one length-prefixed request message, runs `run` on it, and answers the initial metadata,
 * the length-prefixed response and the status trailers (`grpc-status`, `grpc-message`, the details).
 * A request that is not one message is refused with grpc-js's codes and words. It spares each call
 * grpc-js's per-call machinery (its interceptor chain, metadata objects, stream decoder and several
 * hops through the event loop), which cost more server CPU than a whole HTTP/1.1 GET (issue 47);
 * calls it does not serve ({@link servesUnary}), reflection and unknown methods stay with grpc-js.
 *
 * @example
 * serveUnaryCall(stream, "/chainguard.platform.iam.v2.GroupsService/GetGroup", async (bytes) => ({ header, message }));
 */
export function serveUnaryCall(
  stream: ServerHttp2Stream,
  path: string,
  run: (request: Buffer) => Promise<UnaryReply>,
): void {
  // Errors (a reset by the peer) are followed by a close: nothing to answer, as grpc-js does.
  stream.once("error", () => {});
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  stream.on("data", (chunk: Buffer) => {
    if (refused) return;
    chunks.push(chunk);
    size += chunk.length;
    if (size < 5) return;
    // grpc-js refuses a message as soon as its declared length passes the limit.
    const declared = (chunks.length === 1 ? chunk : Buffer.concat(chunks, size)).readUInt32BE(1);
    if (declared > MAX_REQUEST) {
      refused = true;
      chunks.length = 0;
      const details = `Received message larger than max (${declared} vs ${MAX_REQUEST})`;
      answerStatusOnly(stream, { code: 8, details });
    }
  });
  stream.once("end", () => {
    if (refused) return;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    const messages: Buffer[] = [];
    for (let at = 0; body.length - at >= 5; ) {
      const length = body.readUInt32BE(at + 1);
      // A message cut short is never read (grpc-js waits for the rest, which does not come).
      if (body.length - at - 5 < length) break;
      messages.push(body.subarray(at + 5, at + 5 + length));
      at += 5 + length;
    }
    // The compressed flag is not looked at: with identity encoding grpc-js reads the bytes as they are.
    if (messages.length !== 1) {
      const which = messages.length === 0 ? "no request message" : "a second request message";
      answerStatusOnly(stream, {
        code: 12,
        details: `Received ${which} for server streaming method ${path}`,
      });
      return;
    }
    run(messages[0] as Buffer)
      .then(
        (reply) => answer(stream, reply),
        () => answerStatusOnly(stream, { code: 2, details: "Unknown error" }),
      )
      // The stream went away under the answer (its session ended, e.g. by an injected reset): there
      // is no one to tell, and the emulator goes on.
      .catch(() => stream.destroy());
  });
}

function answer(stream: ServerHttp2Stream, reply: UnaryReply): void {
  // The client gave up (cancelled, or its connection died) while the call ran.
  if (stream.destroyed || stream.closed) return;
  const status = reply.status ?? { code: 0, details: "OK" };
  stream.respond({ ...RESPONSE_HEADERS, ...reply.header.toHttp2Headers() }, { waitForTrailers: true });
  stream.once("wantTrailers", () => stream.sendTrailers(trailersOf(status)));
  if (reply.message === undefined) {
    stream.end();
    return;
  }
  const message = reply.message;
  const framed = Buffer.allocUnsafe(5 + message.length);
  framed[0] = 0;
  framed.writeUInt32BE(message.length, 1);
  framed.set(message, 5);
  stream.end(framed);
}

// A status with no answer before it: one HEADERS frame that also ends the stream ("trailers only").
function answerStatusOnly(stream: ServerHttp2Stream, status: UnaryStatus): void {
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  try {
    stream.respond(
      { ...trailersOf(status), ":status": 200, "content-type": "application/grpc+proto" },
      { endStream: true },
    );
  } catch {
    // Its session is ending: nothing to answer on.
    stream.destroy();
  }
}

function trailersOf(status: UnaryStatus): OutgoingHttpHeaders {
  return {
    "grpc-status": String(status.code),
    "grpc-message": encodeURI(status.details),
    ...status.metadata?.toHttp2Headers(),
  };
}
