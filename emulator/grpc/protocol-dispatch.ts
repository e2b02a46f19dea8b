import type { Server as HttpServer } from "node:http";
import type { Http2Server } from "node:http2";
import type { Server as HttpsServer } from "node:https";
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";

/**
 * The first bytes every HTTP/2 client with prior knowledge (h2c: grpc-go with insecure credentials,
 * grpcurl -plaintext, Node's http2.connect) sends (RFC 9113 §3.4).
 *
 * @example
 * socket.write(HTTP2_PREFACE);
 */
export const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/**
 * Which protocol the first bytes of a plain connection speak: `h2` once they are the whole HTTP/2
 * preface, `http1` as soon as they differ from it (no HTTP/1.1 request line starts with `PRI *`), and
 * `undecided` while they are a proper prefix of it (a client may send the preface in pieces).
 *
 * @example
 * protocolOfPreface(Buffer.from("GET / HTTP/1.1\r\n")); // "http1"
 * protocolOfPreface(HTTP2_PREFACE.subarray(0, 5)); // "undecided"
 */
export function protocolOfPreface(head: Buffer): "h2" | "http1" | "undecided" {
  const n = Math.min(head.length, HTTP2_PREFACE.length);
  if (head.compare(HTTP2_PREFACE, 0, n, 0, n) !== 0) return "http1";
  return n === HTTP2_PREFACE.length ? "h2" : "undecided";
}

/**
 * A port that speaks two protocols; {@link ProtocolDispatch.close} ends the HTTP/2 sessions it handed
 * out (the HTTP server closes its own connections).
 *
 * @example
 * const dispatch = attachProtocolDispatch(app.server, h2, false);
 * dispatch.close();
 */
export interface ProtocolDispatch {
  /** Destroys every HTTP/2 connection, and every connection not yet handed over. */
  close(): void;
  /** Connections handed to each side so far (for tests and the benchmark). */
  counts(): { http1: number; h2: number };
}

/**
 * Makes the HTTP server's port also serve HTTP/2: every new connection goes to the HTTP/1.1 server as
 * before, unless it speaks HTTP/2, in which case it goes to `h2`.
 *
 * - plain TCP: the first bytes decide ({@link protocolOfPreface}); they are put back on the socket
 *   before the chosen server reads it;
 * - TLS (`tls` true, `server` an https server offering ALPN `h2` and `http/1.1`): the protocol the
 *   handshake agreed decides; a client offering no ALPN gets HTTP/1.1.
 *
 * The HTTP server keeps listening, closing and counting its own connections; only the handover
 * changes, so the HTTP surface behaves exactly as without gRPC.
 *
 * @example
 * const h2 = http2.createServer(grpcHandler);
 * attachProtocolDispatch(app.server, h2, false);
 * await app.listen({ port: 0 });
 */
export function attachProtocolDispatch(
  server: HttpServer | HttpsServer,
  h2: Http2Server,
  tls: boolean,
): ProtocolDispatch {
  const event = tls ? "secureConnection" : "connection";
  const http1Listeners = server.listeners(event) as ((socket: Socket) => void)[];
  server.removeAllListeners(event);
  const sessions = new Set<Socket>();
  const counts = { http1: 0, h2: 0 };
  let closed = false;
  const toHttp1 = (socket: Socket) => {
    counts.http1++;
    for (const l of http1Listeners) l.call(server, socket);
  };
  const toH2 = (socket: Socket) => {
    if (closed) return void socket.destroy();
    counts.h2++;
    // The HTTP server sets no-delay in its own connection handler, which HTTP/2 sockets skip: without
    // it Nagle's algorithm holds small frames (a gRPC answer's trailers) back for milliseconds.
    socket.setNoDelay(true);
    sessions.add(socket);
    socket.once("close", () => sessions.delete(socket));
    h2.emit("connection", socket);
  };
  server.on(event, (socket: Socket) => {
    if (tls) {
      if ((socket as TLSSocket).alpnProtocol === "h2") toH2(socket);
      else toHttp1(socket);
      return;
    }
    let head: Buffer = Buffer.alloc(0);
    // Tracked until it is handed over, so that close() also ends a connection that never spoke.
    sessions.add(socket);
    socket.once("close", () => sessions.delete(socket));
    const onData = (chunk: Buffer) => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const protocol = protocolOfPreface(head);
      if (protocol === "undecided") return;
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.pause();
      socket.unshift(head);
      sessions.delete(socket);
      if (protocol === "h2") toH2(socket);
      else {
        toHttp1(socket);
        // The HTTP server reads the bytes put back through the stream, the rest from the handle.
        socket.resume();
      }
    };
    // A client that stops sending before the bytes decide has sent no request: nothing to answer.
    const onEnd = () => {
      socket.off("data", onData);
      socket.destroy();
    };
    socket.on("data", onData);
    socket.once("end", onEnd);
  });
  return {
    close: () => {
      closed = true;
      for (const s of sessions) s.destroy();
      sessions.clear();
    },
    counts: () => ({ ...counts }),
  };
}
