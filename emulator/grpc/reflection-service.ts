import type { DescExtension, DescFile, DescMessage } from "@bufbuild/protobuf";
import { create, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import type { RpcRegistry } from "./api-rpcs.js";
import type { ServerReflectionRequest } from "./gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflectionResponseSchema as ResponseV1,
  ServerReflection as ServerReflectionV1,
} from "./gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflectionResponseSchema as ResponseV1alpha,
  ServerReflection as ServerReflectionV1alpha,
} from "./gen/grpc/reflection/v1alpha/reflection_pb.js";
import { API_SERVICES, WIRE_FILES, WIRE_REGISTRY } from "./wire-types.js";

// The service names reflection lists: the contract's services and reflection itself (as grpc-go does).
const LISTED = [
  ...API_SERVICES.map((s) => s.typeName),
  ServerReflectionV1.typeName,
  ServerReflectionV1alpha.typeName,
];

/**
 * The answer (the `message_response` oneof) to one reflection question: a file with all its imports
 * (the file first), the list of services, or NOT_FOUND naming what was asked. The same answers serve
 * `grpc.reflection.v1` and `v1alpha`, whose messages are the same on the wire.
 *
 * @example
 * answerReflection({ messageRequest: { case: "listServices", value: "*" } });
 * // { case: "listServicesResponse", value: { service: [{ name: "chainguard.platform.iam.v2beta1.GroupsService" }, …] } }
 */
export function answerReflection(
  question: Pick<ServerReflectionRequest, "messageRequest">,
):
  | { case: "listServicesResponse"; value: { service: { name: string }[] } }
  | { case: "fileDescriptorResponse"; value: { fileDescriptorProto: Uint8Array[] } }
  | { case: "allExtensionNumbersResponse"; value: { baseTypeName: string; extensionNumber: number[] } }
  | { case: "errorResponse"; value: { errorCode: number; errorMessage: string } } {
  const q = question.messageRequest;
  const notFound = (what: string) => ({
    case: "errorResponse" as const,
    value: { errorCode: Code.NotFound, errorMessage: `${what} not found` },
  });
  switch (q.case) {
    case "listServices":
      return { case: "listServicesResponse", value: { service: LISTED.map((name) => ({ name })) } };
    case "fileByFilename": {
      const file = WIRE_FILES.get(q.value);
      return file === undefined ? notFound(`file ${q.value}`) : filesOf(file);
    }
    case "fileContainingSymbol": {
      const file = fileOfSymbol(q.value);
      return file === undefined ? notFound(`symbol ${q.value}`) : filesOf(file);
    }
    case "allExtensionNumbersOfType": {
      // The events method option (annotations/events.proto) is the one extension our files declare.
      const m = WIRE_REGISTRY.getMessage(q.value);
      return m === undefined
        ? notFound(`type ${q.value}`)
        : {
            case: "allExtensionNumbersResponse",
            value: { baseTypeName: q.value, extensionNumber: extensionsOf(q.value).map((x) => x.number) },
          };
    }
    case "fileContainingExtension": {
      const ext = extensionsOf(q.value.containingType).find((x) => x.number === q.value.extensionNumber);
      return ext === undefined
        ? notFound(`extension ${q.value.extensionNumber} of ${q.value.containingType}`)
        : filesOf(ext.file);
    }
    default:
      return {
        case: "errorResponse",
        value: { errorCode: Code.InvalidArgument, errorMessage: "the request asks no question" },
      };
  }
}

// The extensions of a message declared in the files the emulator serves.
function extensionsOf(typeName: string): DescExtension[] {
  return [...WIRE_FILES.values()].flatMap((f) =>
    f.extensions.filter((x) => x.extendee.typeName === typeName),
  );
}

function fileOfSymbol(symbol: string): DescFile | undefined {
  const name = symbol.replace(/^\./, "");
  const direct = WIRE_REGISTRY.get(name);
  if (direct !== undefined) return fileOf(direct as { file?: DescFile; parent?: unknown });
  // A method (`pkg.Service.Method`) or a field (`pkg.Message.field`): its parent's file.
  const parent = WIRE_REGISTRY.get(name.slice(0, name.lastIndexOf(".")));
  return parent === undefined ? undefined : fileOf(parent as { file?: DescFile });
}

function fileOf(desc: { file?: DescFile }): DescFile | undefined {
  return desc.file;
}

function filesOf(file: DescFile): {
  case: "fileDescriptorResponse";
  value: { fileDescriptorProto: Uint8Array[] };
} {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  const add = (f: DescFile) => {
    if (seen.has(f.proto.name)) return;
    seen.add(f.proto.name);
    out.push(toBinary(FileDescriptorProtoSchema, f.proto));
    for (const d of f.dependencies) add(d);
  };
  add(file);
  return { case: "fileDescriptorResponse", value: { fileDescriptorProto: out } };
}

/**
 * Serves gRPC server reflection (`grpc.reflection.v1` and `v1alpha`, one bidirectional stream each)
 * over every file the emulator serves, so grpcurl, Postman and evans find the services by themselves.
 * Reflection is open: it tells the interface, never any data.
 *
 * @example
 * registerReflection({ rpc: (method, impl) => rpcs.set(method, impl) });
 */
export function registerReflection(router: RpcRegistry): void {
  for (const [service, response] of [
    [ServerReflectionV1, ResponseV1],
    [ServerReflectionV1alpha, ResponseV1alpha],
  ] as const) {
    router.rpc(service.method.serverReflectionInfo, async function* (
      questions: AsyncIterable<ServerReflectionRequest>,
    ) {
      for await (const q of questions) {
        yield create(response as DescMessage, {
          validHost: q.host,
          originalRequest: q,
          messageResponse: answerReflection(q as ServerReflectionRequest),
        }) as never;
      }
    } as never);
  }
}
