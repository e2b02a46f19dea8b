import { randomBytes } from "node:crypto";
import type { Http2Server } from "node:http2";
import { createServer } from "node:http2";
import { createContextValues } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { AppContext } from "../http/index.js";
import { RAW_REQUEST, registerApiRpcs } from "./api-rpcs.js";
import { registerReflection } from "./reflection-service.js";

/**
 * The gRPC side of the emulator: an HTTP/2 server (never listening itself: the protocol dispatch hands
 * it the connections of the one port) serving the contract's services and server reflection, gRPC
 * protocol only (not gRPC-Web or Connect). An HTTP/2 request that is not gRPC gets gRPC's own answer
 * (UNIMPLEMENTED for an unknown method, 415 for another content type).
 *
 * @example
 * const h2 = createGrpcServer(ctx);
 * attachProtocolDispatch(app.server, h2, false);
 */
export function createGrpcServer(ctx: AppContext): Http2Server {
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
  return createServer(handler);
}
