import type { JsonValue } from "@bufbuild/protobuf";
import { fromJson } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { Code } from "pulumi-irv/sdk";
import { ApiFault } from "../core/index.js";
import { DETAIL_TYPES, WIRE_REGISTRY } from "./wire-types.js";

const DETAIL_PREFIX = "type.googleapis.com/";

/**
 * The gRPC answer to an {@link ApiFault}: the same canonical code and message as the HTTP answer's
 * body, and its details (ErrorInfo, BadRequest, PreconditionFailure, RetryInfo, QuotaFailure,
 * RequestInfo, …) packed as `google.protobuf.Any` into the `google.rpc.Status` of the
 * `grpc-status-details-bin` trailer. The fault's headers (`retry-after`) travel as trailers too.
 *
 * @example
 * throw faultToConnectError(notFound("group", uid), "req-1"); // NOT_FOUND, with ErrorInfo and RequestInfo
 */
export function faultToConnectError(fault: ApiFault, requestId: string): ConnectError {
  const body = fault.toBody(requestId);
  const details = body.details.flatMap((d) => {
    const { "@type": typeUrl, ...json } = d as { "@type": string } & Record<string, unknown>;
    const desc =
      typeof typeUrl === "string" ? DETAIL_TYPES.get(typeUrl.slice(DETAIL_PREFIX.length)) : undefined;
    // Every detail the emulator writes is one of DETAIL_TYPES (a unit test checks it).
    if (desc === undefined) return [];
    // From the detail's JSON form (a RetryInfo's delay is "1.5s"), as the published message.
    return [{ desc, value: fromJson(desc, json as JsonValue, { registry: WIRE_REGISTRY }) }];
  });
  return new ConnectError(body.message, body.code, fault.headers, details);
}

/**
 * Any failure of a gRPC call as the error its client receives: our faults as
 * {@link faultToConnectError}; anything else is a bug of the emulator (INTERNAL, reported to `onBug`),
 * never a stack trace on the wire.
 *
 * @example
 * catch (e) { throw toConnectError(e, requestId, (bug) => console.error(bug)); }
 */
export function toConnectError(
  error: unknown,
  requestId: string,
  onBug?: (e: unknown) => void,
): ConnectError {
  if (error instanceof ApiFault) return faultToConnectError(error, requestId);
  if (error instanceof ConnectError) return error;
  onBug?.(error);
  return faultToConnectError(
    new ApiFault(Code.INTERNAL, "the emulator failed to handle this request (a bug: please report it)"),
    requestId,
  );
}
