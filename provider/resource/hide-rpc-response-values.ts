import { createRequire } from "node:module";

// The engine's answers that carry a resource's outputs, secrets included: the program needs their
// plain values to resolve its Outputs, so they hold them inside the secret wrapper.
const RESPONSES = ["RegisterResourceResponse", "ReadResourceResponse"] as const;

type ResponseClass = { prototype: { getUrn(): string; toString(): string } };
type ResourceProto = Record<(typeof RESPONSES)[number], ResponseClass | undefined>;

let hidden = false;

/**
 * Stops @pulumi/pulumi from printing the values of the engine's resource answers in its own debug
 * messages. Its runtime logs every answer whole (`runtime/resource.js`: "RegisterResource RPC
 * finished: …; resp: ${innerResponse}", and the same for ReadResource) and a protobuf message prints
 * all its fields, so every secret output (an invite's `code`, a derived client secret) reached the
 * engine's debug events in plain text: `--event-log`, `--debug`, `-v=3 --logtostderr`. The engine
 * masks only stack config secrets there. After this call those messages print the URN alone. It
 * changes the message classes of the @pulumi/pulumi copy the program uses, once per process; the
 * program still receives every value.
 *
 * @example
 * hideRpcResponseValues(); // before the first resource is registered
 * new pulumi.dynamic.Resource(provider, "invite", { code: undefined });
 */
export function hideRpcResponseValues(): void {
  if (hidden) return;
  hidden = true;
  // Resolved like `@pulumi/pulumi` itself (a peer dependency): the program's own copy.
  let proto: ResourceProto;
  try {
    proto = createRequire(import.meta.url)("@pulumi/pulumi/proto/resource_pb.js") as ResourceProto;
  } catch {
    // A private module: a future @pulumi/pulumi may move it. Declaring resources must not fail
    // because of that; the e2e secrets test would show the leak again.
    return;
  }
  for (const name of RESPONSES) {
    const response = proto[name];
    if (response === undefined) continue;
    response.prototype.toString = function (this: { getUrn(): string }) {
      return `${name}{urn: ${this.getUrn()}, values not shown}`;
    };
  }
}
