// Clients of the emulator's gRPC transport, generated from our protos (protoc-gen-es, Connect for
// Node speaking the gRPC protocol over HTTP/2), with the bearer token in `authorization` metadata.
import type { DescMessage, DescService, JsonValue, Message } from "@bufbuild/protobuf";
import { fromJson } from "@bufbuild/protobuf";
import type { Client, Transport } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { WIRE_REGISTRY } from "../../../../emulator/grpc/index.js";

/**
 * A gRPC transport to `baseUrl` (h2c for http://, h2 over TLS for https://) sending `token` as the
 * bearer token; `ca` trusts a test certificate.
 *
 * @example
 * const transport = grpcTransport(emu.baseUrl, emu.adminToken);
 */
export function grpcTransport(baseUrl: string, token: string | undefined, ca?: string): Transport {
  return createGrpcTransport({
    baseUrl,
    ...(ca === undefined ? {} : { nodeOptions: { ca } }),
    interceptors: [
      (next) => (req) => {
        if (token !== undefined) req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      },
    ],
  });
}

/**
 * A client of one service over {@link grpcTransport}.
 *
 * @example
 * const groups = grpcClient(GroupsService, emu.baseUrl, emu.adminToken);
 */
export function grpcClient<T extends DescService>(
  service: T,
  baseUrl: string,
  token: string | undefined,
  ca?: string,
): Client<T> {
  return createClient(service, grpcTransport(baseUrl, token, ca));
}

/**
 * An HTTP answer decoded into the published message, strictly (an unknown field fails): what a gRPC
 * answer is compared with.
 *
 * @example
 * equals(GroupSchema, got, decodeHttp(GroupSchema, await emu.ok("GET", `/iam/v2beta1/groups/${uid}`)));
 */
export function decodeHttp<T extends Message>(schema: DescMessage, json: unknown): T {
  return fromJson(schema, json as JsonValue, { registry: WIRE_REGISTRY }) as T;
}
