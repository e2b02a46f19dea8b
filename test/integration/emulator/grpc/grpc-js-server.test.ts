// What the gRPC transport keeps since it is served by @grpc/grpc-js instead of Connect for Node:
// grpc-js answers every stream of its HTTP/2 server itself (415 to a JSON request), yet a JSON client
// speaking HTTP/2 still reaches the HTTP app; an injected reset still ends the connection; bytes that
// are not the rpc's message are INVALID_ARGUMENT (grpc-js's own answer would be INTERNAL); the
// request id still comes back in the response headers, on success and on error.
import type { ClientHttp2Session } from "node:http2";
import { connect } from "node:http2";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import {
  GetGroupRequestSchema,
  GroupsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import { useGrpcEmulator } from "./grpc-client.js";

const emu = useGrpcEmulator();

interface H2Answer {
  headers: Record<string, unknown>;
  trailers: Record<string, unknown>;
  body: Buffer;
}

// One request on an HTTP/2 connection with prior knowledge (h2c), as any HTTP/2 client sends it.
function h2Request(
  session: ClientHttp2Session,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers);
    const answer: H2Answer = { headers: {}, trailers: {}, body: Buffer.alloc(0) };
    const chunks: Buffer[] = [];
    stream.on("response", (h) => {
      answer.headers = h;
    });
    stream.on("trailers", (t) => {
      answer.trailers = t;
    });
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve({ ...answer, body: Buffer.concat(chunks) }));
    stream.on("error", reject);
    stream.end(body);
  });
}

// A gRPC message frame: a flag byte (not compressed), the length, the bytes.
const framed = (bytes: Uint8Array) => {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
};

// A GetGroup call whose request frame carries `bytes` (the encoded request unless given), with the
// admin token unless `token` says otherwise (null: no authorization header).
const getGroup = (session: ClientHttp2Session, bytes?: Uint8Array, token: string | null = emu.adminToken) =>
  h2Request(
    session,
    {
      ":method": "POST",
      ":path": "/chainguard.platform.iam.v2beta1.GroupsService/GetGroup",
      "content-type": "application/grpc",
      te: "trailers",
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    framed(bytes ?? toBinary(GetGroupRequestSchema, create(GetGroupRequestSchema, { uid: emu.orgUid }))),
  );

describe("the gRPC transport on grpc-js", () => {
  it("a JSON request over HTTP/2 is answered by the HTTP app, on the connection gRPC calls use", async () => {
    const session = connect(emu.baseUrl);
    try {
      const json = await h2Request(session, {
        ":method": "GET",
        ":path": `/iam/v2beta1/groups/${emu.orgUid}`,
        authorization: `Bearer ${emu.adminToken}`,
      });
      expect(json.headers[":status"]).toBe(200);
      expect(String(json.headers["content-type"])).toMatch(/^application\/json/);
      expect((JSON.parse(json.body.toString()) as { uid: string }).uid).toBe(emu.orgUid);
      const grpc = await getGroup(session);
      expect(grpc.trailers["grpc-status"]).toBe("0");
      expect(grpc.headers["x-request-id"]).toMatch(/\S/);
    } finally {
      session.close();
    }
  });

  it("bytes that are not the request message are INVALID_ARGUMENT naming the message, with a request id", async () => {
    const session = connect(emu.baseUrl);
    try {
      const answer = await getGroup(session, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]));
      const status = answer.trailers["grpc-status"] ?? answer.headers["grpc-status"];
      expect(status).toBe(String(Code.InvalidArgument));
      const message = decodeURIComponent(
        String(answer.trailers["grpc-message"] ?? answer.headers["grpc-message"]),
      );
      expect(message).toContain("chainguard.platform.iam.v2beta1.GetGroupRequest");
      expect(answer.headers["x-request-id"]).toMatch(/\S/);
    } finally {
      session.close();
    }
  });

  it("regression (undecodable request refused before admission): without a token it is UNAUTHENTICATED, as over HTTP, and counted", async () => {
    // The refusal came before the token was checked: a caller with no credential was told how its
    // bytes were wrong (HTTP answers 401 to a malformed body without a token), and the call was not
    // counted in the stats.
    const session = connect(emu.baseUrl);
    emu.resetStats();
    try {
      const answer = await getGroup(session, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]), null);
      const status = answer.trailers["grpc-status"] ?? answer.headers["grpc-status"];
      expect(status).toBe(String(Code.Unauthenticated));
      expect(emu.stats().total).toBe(1);
    } finally {
      session.close();
    }
  });

  it("an injected reset ends the call's connection; the next call, on a new one, succeeds", async () => {
    const session = connect(emu.baseUrl);
    const closed = new Promise<void>((resolve) => session.once("close", resolve));
    emu.setFaults("reset-before=1");
    try {
      await getGroup(session).catch(() => undefined);
      await closed;
    } finally {
      emu.setFaults("none");
    }
    const groups = emu.client(GroupsService);
    expect((await groups.getGroup({ uid: emu.orgUid })).uid).toBe(emu.orgUid);
  });
});
