import { randomBytes } from "node:crypto";
import type {
  Http2Server,
  Http2ServerRequest,
  Http2ServerResponse,
  IncomingHttpHeaders,
  ServerHttp2Stream,
} from "node:http2";
import { createServer } from "node:http2";
import type { Socket } from "node:net";
import type { DescMethod, DescService, Message } from "@bufbuild/protobuf";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { ConnectError } from "@connectrpc/connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import * as grpc from "@grpc/grpc-js";
import type { AppContext } from "../http/index.js";
import type { RpcCall, RpcRegistry } from "./api-rpcs.js";
import { registerApiRpcs, UndecodableRequest } from "./api-rpcs.js";
import { toConnectError } from "./grpc-faults.js";
import { registerReflection } from "./reflection-service.js";

// A unary rpc answers its message, or the message already in its binary encoding (the API's rpcs:
// see api-rpcs.ts), which is sent as it is.
type UnaryRpc = (request: Message, call: RpcCall) => Promise<Message | Uint8Array>;
type BidiRpc = (requests: AsyncIterable<Message>) => AsyncIterable<Message>;

/**
 * The HTTP/2 side of the emulator: a server (never listening itself: the protocol dispatch hands it
 * the connections of the one port) serving the contract's services and server reflection over the
 * gRPC protocol with `@grpc/grpc-js` (whose per-call path costs a third of Connect for Node's: see
 * bench/RESULTS.md). The rpcs are the ones {@link registerApiRpcs} and {@link registerReflection}
 * register, so they call the same service core as the HTTP routes. A request whose content type is
 * not gRPC's is handed to `http` (the JSON API's app): a JSON client that speaks HTTP/2, as ALPN gives
 * it over TLS, is answered exactly as over HTTP/1.1.
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
  const rpcs = new Map<DescMethod, UnaryRpc | BidiRpc>();
  const registry: RpcRegistry = { rpc: (method, impl) => void rpcs.set(method, impl as UnaryRpc | BidiRpc) };
  registerApiRpcs(registry, ctx, () => `${idPrefix}-g${(++nextId).toString(36)}`);
  registerReflection(registry);

  // The connections handed over, to end one on an injected reset (grpc-js tells a call its peer).
  const sockets = new Set<Socket>();
  const resetPeer = (peer: string) => {
    for (const s of sockets) {
      if (peer === `${s.remoteAddress}:${s.remotePort}`) s.destroy();
    }
  };
  // Channelz (grpc-js's per-call introspection counters) is a service the emulator does not serve.
  const server = new grpc.Server({ "grpc.enable_channelz": 0 });
  const byService = new Map<DescService, DescMethod[]>();
  for (const method of rpcs.keys())
    byService.set(method.parent, [...(byService.get(method.parent) ?? []), method]);
  for (const [service, methods] of byService) {
    const definition: grpc.ServiceDefinition = {};
    const handlers: grpc.UntypedServiceImplementation = {};
    for (const method of methods) {
      const bidi = method.methodKind === "bidi_streaming";
      const path = `/${service.typeName}/${method.name}`;
      Object.assign(definition, {
        [method.name]: {
          path,
          requestStream: bidi,
          responseStream: bidi,
          requestSerialize: (m: Message) => Buffer.from(toBinary(method.input, m)),
          requestDeserialize: (b: Buffer) => decodeRequest(method, b),
          responseSerialize: (m: Message | Uint8Array) =>
            m instanceof Uint8Array
              ? Buffer.from(m.buffer, m.byteOffset, m.byteLength)
              : Buffer.from(toBinary(method.output, create(method.output, m))),
          responseDeserialize: (b: Buffer) => fromBinary(method.output, b),
        },
      });
      const rpc = rpcs.get(method);
      handlers[method.name] = bidi
        ? (call: grpc.ServerDuplexStream<Message, Message>) => {
            void (async () => {
              for await (const answer of (rpc as BidiRpc)(call)) call.write(answer);
              call.end();
            })().catch((e: unknown) => call.emit("error", serviceErrorOf(toConnectError(e, ""))));
          }
        : (
            call: grpc.ServerUnaryCall<Message, Message>,
            callback: grpc.sendUnaryData<Message | Uint8Array>,
          ) => {
            const header = new grpc.Metadata();
            const rpcCall: RpcCall = {
              authorization: authorizationOf(call.metadata),
              setHeader: (name, value) => header.set(name, value),
              // The peer is named only when a fault needs it: grpc-js builds the text on each ask.
              resetConnection: () => resetPeer(call.getPeer()),
            };
            (rpc as UnaryRpc)(call.request, rpcCall).then(
              (message) => {
                call.sendMetadata(header);
                callback(null, message);
              },
              (e: unknown) => {
                call.sendMetadata(header);
                callback(serviceErrorOf(toConnectError(e, "")));
              },
            );
          };
    }
    server.addService(definition, handlers);
  }
  return routedServer(server, http, sockets);
}

function decodeRequest(method: DescMethod, bytes: Buffer): Message | UndecodableRequest {
  try {
    return fromBinary(method.input, bytes);
  } catch (e) {
    return new UndecodableRequest(method.input, e);
  }
}

// The HTTP/2 server grpc-js made for its connection injector, with its streams routed by content
// type: gRPC's to grpc-js, any other to a Node compatibility server answering with `http`. grpc-js
// answers every stream of its server itself (415 to JSON), and exposes that server to no public API:
// it is found in the Server's own table (the emulator package holds grpc-js to 1.14.x for that), and
// test/integration/emulator/grpc/grpc-js-server.test.ts fails should grpc-js change it.
function routedServer(
  server: grpc.Server,
  http: (req: Http2ServerRequest, res: Http2ServerResponse) => void,
  sockets: Set<Socket>,
): Http2Server {
  const servers = () => [
    ...((server as unknown as { http2Servers?: Map<Http2Server, unknown> }).http2Servers?.keys() ?? []),
  ];
  const known = new Set(servers());
  server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  const h2 = servers().find((s) => !known.has(s));
  if (h2 === undefined)
    throw new Error("@grpc/grpc-js no longer keeps its injector's HTTP/2 server where we look");
  const grpcStreams = h2.listeners("stream") as ((...args: unknown[]) => void)[];
  h2.removeAllListeners("stream");
  const compat = createServer(http);
  h2.on("stream", (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, ...rest: unknown[]) => {
    if (/^application\/grpc(\+|;|$)/.test(headers["content-type"] ?? "")) {
      for (const l of grpcStreams) l.call(h2, stream, headers, ...rest);
    } else compat.emit("stream", stream, headers, ...rest);
  });
  h2.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  return h2;
}

// The request's first `authorization` value, as a fetch Headers object gives it (the HTTP route's
// view): without leading or trailing HTTP whitespace.
function authorizationOf(metadata: grpc.Metadata): string | undefined {
  const value = metadata.get("authorization")[0];
  return typeof value === "string" ? value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "") : undefined;
}

// Headers as grpc-js metadata: `-bin` values are base64 on the wire, bytes in grpc-js.
function metadataOf(headers: Headers): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const [k, v] of headers) metadata.add(k, k.endsWith("-bin") ? Buffer.from(v, "base64") : v);
  return metadata;
}

// A ConnectError as grpc-js sends it: the same status, message, `grpc-status-details-bin` and headers
// that Connect's own gRPC handler writes (its setTrailerStatus), the status and message as grpc-js's.
function serviceErrorOf(error: ConnectError): Partial<grpc.ServiceError> {
  const trailers = setTrailerStatus(new Headers(), error);
  trailers.delete("grpc-status");
  trailers.delete("grpc-message");
  return { code: error.code as number, details: error.rawMessage, metadata: metadataOf(trailers) };
}
