// What the gRPC transport keeps since it is served by @grpc/grpc-js instead of Connect for Node:
// grpc-js answers every stream of its HTTP/2 server itself (415 to a JSON request), yet a JSON client
// speaking HTTP/2 still reaches the HTTP app; an injected reset still ends the connection; bytes that
// are not the rpc's message are INVALID_ARGUMENT (grpc-js's own answer would be INTERNAL); the
// request id still comes back in the response headers, on success and on error.
import type { ClientHttp2Session } from "node:http2";
import { connect } from "node:http2";
import { gzipSync } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GetGroupRequestSchema,
  GroupsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import type { TestEmulator } from "../support.js";
import { startTestEmulator } from "../support.js";
import { grpcClient } from "./grpc-client.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

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

const getGroupRequest = (uid: string) =>
  toBinary(GetGroupRequestSchema, create(GetGroupRequestSchema, { uid }));

// A GetGroup call whose request frame carries `bytes` (the encoded request unless given), with the
// admin token unless `token` says otherwise (null: no authorization header); `body` replaces the whole
// request body, `extra` adds headers.
const getGroup = (
  session: ClientHttp2Session,
  bytes?: Uint8Array,
  token: string | null = emu.adminToken,
  { body, extra }: { body?: Buffer; extra?: Record<string, string> } = {},
) =>
  h2Request(
    session,
    {
      ":method": "POST",
      ":path": "/chainguard.platform.iam.v2beta1.GroupsService/GetGroup",
      "content-type": "application/grpc",
      te: "trailers",
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...extra,
    },
    body ?? framed(bytes ?? getGroupRequest(emu.orgUid)),
  );

// The status of an answer, wherever it came (trailers, or the headers of a trailers-only answer).
const statusOf = (a: H2Answer) => ({
  code: a.trailers["grpc-status"] ?? a.headers["grpc-status"],
  message: decodeURIComponent(String(a.trailers["grpc-message"] ?? a.headers["grpc-message"])),
  details: a.trailers["grpc-status-details-bin"],
});

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
    const groups = grpcClient(GroupsService, emu.baseUrl, emu.adminToken);
    expect((await groups.getGroup({ uid: emu.orgUid })).uid).toBe(emu.orgUid);
  });
});

// A unary call is served on its stream by the emulator itself (unary-calls.ts) unless it has a deadline
// or a compressed message, which grpc-js serves: both answer alike.
describe("unary calls served without grpc-js (issue 47)", () => {
  const paths = {
    "served directly": {},
    "grpc-js (a deadline)": { "grpc-timeout": "30S" },
  } as const;

  it("answer the same message, status and details as grpc-js, with the request id", async () => {
    const session = connect(emu.baseUrl);
    try {
      for (const uid of [emu.orgUid, `${emu.orgUid}/0123456789abcdef`]) {
        const [direct, viaGrpcJs] = await Promise.all(
          Object.values(paths).map((extra) => getGroup(session, getGroupRequest(uid), undefined, { extra })),
        );
        const [a, b] = [direct as H2Answer, viaGrpcJs as H2Answer];
        expect(a.body).toEqual(b.body);
        // The details name each call's own request id (RequestInfo): the same once it is masked.
        const masked = (x: H2Answer) => {
          const s = statusOf(x);
          const details = s.details === undefined ? undefined : Buffer.from(String(s.details), "base64");
          return {
            ...s,
            details: details?.toString("latin1").replace(String(x.headers["x-request-id"]), "<id>"),
          };
        };
        const status = masked(a);
        expect(status).toEqual(masked(b));
        expect(status.code).toBe(uid === emu.orgUid ? "0" : String(Code.NotFound));
        expect(a.headers["content-type"]).toBe(b.headers["content-type"]);
        expect(a.headers["x-request-id"]).toMatch(/\S/);
        expect(b.headers["x-request-id"]).toMatch(/\S/);
      }
    } finally {
      session.close();
    }
  });

  it("a compressed request goes to grpc-js, which reads it", async () => {
    const session = connect(emu.baseUrl);
    try {
      const zipped = gzipSync(getGroupRequest(emu.orgUid));
      const body = framed(zipped);
      body[0] = 1;
      const answer = await getGroup(session, undefined, undefined, {
        body,
        extra: { "grpc-encoding": "gzip" },
      });
      expect(statusOf(answer).code).toBe("0");
      expect(answer.body.length).toBeGreaterThan(5);
    } finally {
      session.close();
    }
  });

  it("a request that is not one message is refused as grpc-js refuses it", async () => {
    const session = connect(emu.baseUrl);
    try {
      const one = framed(getGroupRequest(emu.orgUid));
      for (const body of [Buffer.alloc(0), Buffer.concat([one, one]), one.subarray(0, 8)]) {
        const [direct, viaGrpcJs] = await Promise.all(
          Object.values(paths).map((extra) => getGroup(session, undefined, undefined, { body, extra })),
        );
        const status = statusOf(direct as H2Answer);
        expect(status.code).toBe(String(Code.Unimplemented));
        expect(status.message).toMatch(/^Received (no|a second) request message/);
        expect(status).toEqual(statusOf(viaGrpcJs as H2Answer));
      }
    } finally {
      session.close();
    }
  });
});
