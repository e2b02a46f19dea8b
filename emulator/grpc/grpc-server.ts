import { randomBytes } from "node:crypto";
import type { Http2Server, Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { createServer } from "node:http2";
import { createContextValues } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { AppContext } from "../http/index.js";
import { RAW_REQUEST, registerApiRpcs } from "./api-rpcs.js";
import { registerReflection } from "./reflection-service.js";

/**
 * The HTTP/2 side of the emulator: a server (never listening itself: the protocol dispatch hands it
 * the connections of the one port) serving the contract's services and server reflection over the
 * gRPC protocol (not gRPC-Web or Connect). A request whose content type is not gRPC's is handed to
 * `http` (the JSON API's app): a JSON client that speaks HTTP/2, as ALPN gives it over TLS, is
 * answered exactly as over HTTP/1.1.
 *
 * @example
 * const h2 = createGrpcServer(ctx, (req, res) => app.routing(req, res));
 * attachProtocolDispatch(app.server, h2, false);
 */
export function createGrpcServer(
  ctx: AppContext,
  http: (req: Http2ServerRequest, res: Http2ServerResponse) => void,
): Http2Server {
  const idPrefix = randomBytes(4).toString("hex");
  let nextId = 0;
  const handler = connectNodeAdapter({
    grpc: true,
    grpcWeb: false,
    connect: false,
    routes: (router) => {
      registerApiRpcs(router, ctx, () => `${idPrefix}-g${(++nextId).toString(36)}`);
      registerReflection(router);
    },
    contextValues: (req) => createContextValues().set(RAW_REQUEST, req as never),
  });
  return createServer((req, res) => {
    if (/^application\/grpc(\+|;|$)/.test(req.headers["content-type"] ?? "")) handler(req, res);
    else http(req, res);
  });
}
