import * as grpc from "@grpc/grpc-js";
import pb from "@pulumi/pulumi/proto/provider_pb.js";
import statusPb from "@pulumi/pulumi/proto/status_pb.js";
import anyPb from "google-protobuf/google/protobuf/any_pb.js";
import type structPb from "google-protobuf/google/protobuf/struct_pb.js";
import type { Props } from "../runtime/index.js";

/**
 * What a failed create says when the resource exists all the same (its POST succeeded and a later
 * step failed): the id, the properties as far as they are known, and why. The dynamic providers'
 * convention: an Error carrying `id`, `properties` and `reasons`.
 *
 * @example
 * const partial = partialCreateOf(error); // { id: "…", properties: { name: "team-a" }, reasons: ["…"] }
 */
export interface PartialCreate {
  id: string;
  properties: Props | undefined;
  reasons: string[];
}

/**
 * The partial create an error describes, or undefined for a create that made nothing.
 *
 * @example
 * partialCreateOf(Object.assign(new Error("x"), { id: uid })); // { id: uid, properties: undefined, reasons: [] }
 */
export function partialCreateOf(e: unknown): PartialCreate | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const { id, properties, reasons } = e as { id?: unknown; properties?: unknown; reasons?: unknown };
  if (typeof id !== "string" || id === "") return undefined;
  return {
    id,
    properties: typeof properties === "object" && properties !== null ? (properties as Props) : undefined,
    reasons: Array.isArray(reasons) ? reasons.map(String) : [],
  };
}

/**
 * A create the engine must record although it failed: the gRPC error carries an
 * `ErrorResourceInitFailed` detail (id, properties, inputs, reasons) in `grpc-status-details-bin`,
 * which is how the engine learns that the resource exists and keeps it in the state instead of
 * leaking it; the next `up` retries what failed, `destroy` deletes it.
 *
 * @example
 * throw new ResourceInitFailed("creating group \"a\": …", { id, properties, inputs, reasons });
 */
export class ResourceInitFailed extends Error {
  readonly metadata: grpc.Metadata;

  constructor(
    message: string,
    detail: { id: string; properties: structPb.Struct; inputs: structPb.Struct; reasons: readonly string[] },
  ) {
    super(message);
    const failed = new pb.ErrorResourceInitFailed()
      .setId(detail.id)
      .setProperties(detail.properties)
      .setInputs(detail.inputs)
      .setReasonsList([...detail.reasons]);
    const any = new anyPb.Any();
    any.pack(failed.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusPb.Status().setCode(grpc.status.UNKNOWN).setMessage(message);
    status.addDetails(any);
    this.metadata = new grpc.Metadata();
    this.metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
}
