// One error, two transports: every canonical code reaches a gRPC client as that code, with the
// google.rpc.Status of grpc-status-details-bin, and an HTTP client as the grpc-gateway status with the
// code in the body; reading either back gives the code again.
import { fromBinary } from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import type { ConnectError } from "@connectrpc/connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { Code, codeForHttpStatus, httpStatusForCode } from "pulumi-irv/sdk";
import { describe, expect, it } from "vitest";
import { ApiFault, failedPrecondition, invalidArgument } from "../../../../emulator/core/index.js";
import { StatusSchema } from "../../../../emulator/grpc/gen/google/rpc/status_pb.js";
import { faultToConnectError, toConnectError, WIRE_REGISTRY } from "../../../../emulator/grpc/index.js";

// The grpc-gateway table (HTTP status of each canonical code) the HTTP transport answers with.
const GATEWAY: Record<number, number> = {
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

// The trailers a gRPC client receives for this error.
function trailersOf(error: ConnectError): Headers {
  return setTrailerStatus(new Headers(), error);
}

// google.rpc.Status of grpc-status-details-bin, decoded as a client does, details unpacked.
function detailsOf(trailers: Headers) {
  const bin = Buffer.from(trailers.get("grpc-status-details-bin") ?? "", "base64");
  const status = fromBinary(StatusSchema, bin);
  return { status, details: status.details.map((d) => anyUnpack(d, WIRE_REGISTRY)) };
}

describe("error codes, HTTP and gRPC", () => {
  it.each(Object.entries(GATEWAY))("code %s: gRPC status is the code; HTTP status %s", (codeText, status) => {
    const code = Number(codeText);
    const fault = new ApiFault(code, "something");
    // gRPC: grpc-status and the Status in the trailer carry the code; a client reads it back.
    const trailers = trailersOf(faultToConnectError(fault, "req-1"));
    expect(trailers.get("grpc-status")).toBe(String(code));
    expect(detailsOf(trailers).status.code).toBe(code);
    expect(findTrailerError(trailers)?.code).toBe(code);
    // HTTP: the gateway's status, the code in the body.
    expect(httpStatusForCode(code)).toBe(status);
    expect(fault.toBody("req-1").code).toBe(code);
    // HTTP status → code, for an answer without a body: exact where one code maps to the status,
    // otherwise a code that maps to the same status.
    const back = codeForHttpStatus(status);
    const sharers = Object.entries(GATEWAY).filter(([, s]) => s === status);
    if (sharers.length === 1) expect(back).toBe(code);
    else expect(httpStatusForCode(back)).toBe(status);
  });

  it("gives a gRPC client the HTTP body's details, in order, as the published google.rpc types", () => {
    const fault = invalidArgument([{ field: "name", description: "must match ^[a-z0-9 ._-]{1,}$" }]);
    const { status, details } = detailsOf(trailersOf(faultToConnectError(fault, "req-2")));
    expect(status.message).toBe(fault.message);
    expect(details.map((m) => m?.$typeName)).toEqual([
      "google.rpc.ErrorInfo",
      "google.rpc.BadRequest",
      "google.rpc.RequestInfo",
    ]);
    const body = fault.toBody("req-2");
    expect(details[0]).toMatchObject({ reason: "INVALID_ARGUMENT", domain: body.details[0]?.domain });
    expect(details[1]).toMatchObject({
      fieldViolations: [{ field: "name", description: "must match ^[a-z0-9 ._-]{1,}$" }],
    });
    expect(details[2]).toMatchObject({ requestId: "req-2" });
  });

  it("keeps a PreconditionFailure's violations", () => {
    const fault = failedPrecondition("group g is not empty", [
      { type: "RESOURCE_NOT_EMPTY", subject: "g/1", description: "has a child" },
    ]);
    const { details } = detailsOf(trailersOf(faultToConnectError(fault, "r")));
    expect(details[1]).toMatchObject({ violations: [{ type: "RESOURCE_NOT_EMPTY", subject: "g/1" }] });
  });

  it("answers anything that is not a fault as INTERNAL, without its text", () => {
    const bugs: unknown[] = [];
    const error = toConnectError(new TypeError("secret internals"), "req-3", (e) => bugs.push(e));
    expect(error.code).toBe(Code.INTERNAL);
    expect(error.rawMessage).not.toContain("secret");
    expect(bugs).toHaveLength(1);
  });
});
