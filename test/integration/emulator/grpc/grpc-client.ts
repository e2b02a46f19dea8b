// Clients of the emulator's gRPC transport, generated from our protos (protoc-gen-es, Connect for
// Node speaking the gRPC protocol over HTTP/2), with the bearer token in `authorization` metadata;
// and the one emulator a gRPC test file starts, with those clients bound to it.
import type { DescMessage, DescService, JsonValue, Message } from "@bufbuild/protobuf";
import { equals, fromJson } from "@bufbuild/protobuf";
import type { Client, Transport } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, expect } from "vitest";
import { WIRE_REGISTRY } from "../../../../emulator/grpc/index.js";
import type { EmulatorOptions } from "../../../../emulator/index.js";
import type { CallOptions, TestEmulator } from "../support.js";
import { startTestEmulator } from "../support.js";

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

/** The emulator of one gRPC test file, with gRPC clients and comparisons bound to it. */
export interface GrpcTestEmulator extends TestEmulator {
  /** A client of `service` sending `token` (the admin token unless given). */
  client<T extends DescService>(service: T, token?: string): Client<T>;
  /**
   * Asserts that `message` (a gRPC answer) equals what `GET path` answers over HTTP once decoded
   * into `schema`; `options` as for {@link TestEmulator.call} (a token, a query).
   */
  sameAsHttp(schema: DescMessage, message: Message, path: string, options?: CallOptions): Promise<void>;
}

/**
 * Registers the hooks that start an emulator before the calling file's tests and close it after
 * them. The object is filled in by `beforeAll`: read its fields inside tests, not at the top level.
 *
 * @example
 * const emu = useGrpcEmulator();
 * it("…", async () => {
 *   const got = await emu.client(GroupsService).getGroup({ uid: emu.orgUid });
 *   await emu.sameAsHttp(GroupSchema, got, `/iam/v2beta1/groups/${emu.orgUid}`);
 * });
 */
export function useGrpcEmulator(options: EmulatorOptions = {}): GrpcTestEmulator {
  const emu = {} as GrpcTestEmulator;
  beforeAll(async () => {
    // startTestEmulator answers a plain object: its fields copy onto the one the file already holds.
    Object.assign(emu, await startTestEmulator(options));
    emu.client = (service, token = emu.adminToken) => grpcClient(service, emu.baseUrl, token);
    emu.sameAsHttp = async (schema, message, path, callOptions) => {
      const overHttp = decodeHttp(schema, await emu.ok("GET", path, callOptions));
      expect(equals(schema, message as never, overHttp as never), path).toBe(true);
    };
  });
  afterAll(() => emu.close?.());
  return emu;
}
