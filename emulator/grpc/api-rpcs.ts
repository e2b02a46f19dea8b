import type {
  DescMessage,
  DescMethod,
  DescService,
  JsonObject,
  JsonValue,
  Message,
} from "@bufbuild/protobuf";
import { toJson } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { KindName } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { invalidArgument } from "../core/index.js";
import type { AppContext } from "../http/index.js";
import { admitCall, bodyViolation } from "../http/index.js";
import type { QueryValues } from "../lists/index.js";
import type { StoredPage } from "../resources/index.js";
import { KIND_RULES } from "../resources/index.js";
import type { RowEncoder } from "./encoded-rows.js";
import { EncodedRows, encodeMessage } from "./encoded-rows.js";
import { toConnectError } from "./grpc-faults.js";
import { API_SERVICES, WIRE_REGISTRY } from "./wire-types.js";

/**
 * What an rpc of the API knows of its call besides the request, as the gRPC server gives it (a plain
 * object: per call, Connect's HandlerContext with its Headers and abort signals cost more than the
 * rest of a GET's own work, issue 47).
 *
 * @example
 * const call: RpcCall = { authorization: "Bearer …", setHeader: (k, v) => md.set(k, v), resetConnection: () => socket.destroy() };
 */
export interface RpcCall {
  /** The request's `authorization` metadata (its first value), if any. */
  readonly authorization: string | undefined;
  /** Adds a header to the answer's initial metadata. */
  setHeader(name: string, value: string): void;
  /** Ends the connection the call came on, for the connection-level faults (an injected reset). */
  resetConnection(): void;
}

/**
 * A request whose bytes are not the rpc's message (the gRPC server's decoder hands it over instead
 * of failing, which grpc-js would answer INTERNAL): the rpc answers INVALID_ARGUMENT naming it, with
 * its request id, as the HTTP route answers a body that is not JSON.
 *
 * @example
 * requestDeserialize: (bytes) => { try { return fromBinary(schema, bytes); } catch (e) { return new UndecodableRequest(schema, e); } }
 */
export class UndecodableRequest {
  readonly description: string;
  constructor(schema: DescMessage, cause: unknown) {
    this.description = `is not a ${schema.typeName}: ${(cause as Error).message}`;
  }
}

/**
 * Where the rpcs are registered: each method of a service with its implementation (unary: a request
 * and its {@link RpcCall} to the answer; bidi streaming: the requests to the answers). The gRPC server
 * serves them.
 *
 * @example
 * const rpcs = new Map();
 * registerApiRpcs({ rpc: (method, impl) => rpcs.set(method, impl) }, ctx, nextId);
 */
export interface RpcRegistry {
  rpc(method: DescMethod, impl: unknown): void;
}

// The kind each v2beta1 resource service serves; its v2 copy serves the same kind.
const BETA_SERVICE_KINDS: Readonly<Record<string, KindName>> = {
  "iam.GroupsService": "groups",
  "iam.IdentitiesService": "identities",
  "iam.RolesService": "roles",
  "iam.RoleBindingsService": "roleBindings",
  "iam.IdentityProvidersService": "identityProviders",
  "iam.AccountAssociationsService": "accountAssociations",
  "iam.GroupInvitesService": "groupInvites",
  "registry.ReposService": "repos",
  "registry.TagsService": "tags",
  "vulnerabilities.AdvisoriesService": "advisories",
  "iam.ExternalGroupRoleMappingsService": "externalGroupRoleMappings",
  "registry.OverlaysService": "overlays",
  "registry.OverlayBindingsService": "overlayBindings",
  "events.SubscriptionsService": "subscriptions",
};

/**
 * The kind each resource service of the contract serves, at each version it is served at
 * (`chainguard.platform.<domain>.v2beta1.*` and the GA `….v2.*`).
 *
 * @example
 * SERVICE_KINDS["chainguard.platform.iam.v2beta1.GroupsService"]; // "groups"
 * SERVICE_KINDS["chainguard.platform.iam.v2.GroupsService"]; // "groups"
 */
export const SERVICE_KINDS: Readonly<Record<string, KindName>> = Object.fromEntries(
  Object.entries(BETA_SERVICE_KINDS).flatMap(([name, kind]) => {
    const [domain, service] = name.split(".");
    return KIND_RULES[kind].versions.map((v) => [`chainguard.platform.${domain}.${v}.${service}`, kind]);
  }),
);

const STS_SERVICE = "chainguard.platform.oidc.SecurityTokenService";

// google.protobuf.Empty, encoded: no bytes.
const EMPTY = new Uint8Array(0);

/**
 * What an rpc does with the service core, given the request and the admitted caller: its answer as
 * JSON text (writes) or already encoded (reads, issue 47: from the rows' kept encodings, see
 * {@link EncodedRows}).
 */
type Step = (
  request: Message,
  caller: Caller | undefined,
  authorization: string | undefined,
) => Answer | Promise<Answer>;
type Answer = string | Uint8Array;

type Verb = "Get" | "List" | "Create" | "Update" | "Delete";

/**
 * The verb of a resource rpc, from its published name (`GetGroup`, `ListGroups`, …).
 *
 * @example
 * verbOf("UpdateRoleBinding"); // "Update"
 */
export function verbOf(rpcName: string): Verb {
  const verb = /^(Get|List|Create|Update|Delete)[A-Z]/.exec(rpcName)?.[1];
  if (verb === undefined) throw new Error(`rpc ${rpcName} is not one of the contract's verbs`);
  return verb as Verb;
}

/**
 * Registers every rpc of the contract's services on a Connect router. Each rpc runs the steps the
 * HTTP route runs (the same {@link admitCall}: stats, faults, bearer token from the `authorization`
 * metadata, rate limit) and then the same service-core call as the route, with the request message
 * in its protojson form. A write's answer (JSON text) is encoded as the rpc's response message by
 * protobuf-es ({@link encodeMessage}); a read's rows are encoded one by one, each kept by its
 * stored text where that alone decides it ({@link EncodedRows}), a List's page joined from them by
 * protobuf-es's `BinaryWriter`. The gRPC server sends the bytes as they are. Errors are the same
 * faults, with the same codes and details ({@link toConnectError}).
 *
 * @example
 * registerApiRpcs({ rpc: (method, impl) => rpcs.set(method, impl) }, ctx, () => "req-1");
 */
export function registerApiRpcs(router: RpcRegistry, ctx: AppContext, nextRequestId: () => string): void {
  const encodedRows = new EncodedRows();
  for (const service of API_SERVICES) {
    for (const method of service.methods) {
      const step = stepOf(ctx, service, method, encodedRows);
      const pattern = `/${service.typeName}/${method.name}`;
      const surface = service.typeName === STS_SERVICE ? "sts" : "api";
      router.rpc(method, (async (request: Message | UndecodableRequest, call: RpcCall) => {
        const requestId = nextRequestId();
        call.setHeader("x-request-id", requestId);
        try {
          const authorization = call.authorization;
          const undecodable = request instanceof UndecodableRequest;
          // Admitted first, as the HTTP route admits a call before it parses the body: a request that
          // does not decode is counted, faulted and rate-limited like any, and a caller without a
          // valid token learns only that (code 16), not how its bytes are wrong.
          const admitted = await admitCall(ctx, {
            surface,
            method: "GRPC",
            pattern,
            updateMask: undecodable ? undefined : maskOf(request),
            authorization,
          });
          if (admitted.reset === "before") resetConnection(call);
          if (undecodable) {
            throw invalidArgument([{ field: "request", description: request.description }]);
          }
          const answer = await step(request, admitted.caller, authorization);
          // The change is made; the client sees its connection die instead of the answer.
          if (admitted.reset === "after") resetConnection(call);
          return encodeAnswer(method.output, answer);
        } catch (e) {
          throw toConnectError(e, requestId, (bug) => {
            process.stderr.write(
              `irv-emulator: unexpected error on gRPC ${pattern}: ${String((bug as Error).stack ?? bug)}\n`,
            );
          });
        }
      }) as never);
    }
  }
}

function stepOf(ctx: AppContext, service: DescService, method: DescMethod, encodedRows: EncodedRows): Step {
  const s = ctx.service;
  if (service.typeName === STS_SERVICE) {
    return async (request, _caller, authorization) => {
      const r = request as Message & { aud: string[]; identity: string };
      // The emulator's STS mints tokens for one identity and audience; what it cannot honour is
      // refused, never dropped.
      const unsupported = Object.keys(toJson(method.input, request) as JsonObject).filter(
        (k) => k !== "aud" && k !== "identity",
      );
      if (unsupported.length > 0) {
        throw invalidArgument(
          unsupported.map((field) => ({
            field,
            description: "is not supported by the emulator's token exchange",
          })),
        );
      }
      const aud = r.aud.length <= 1 ? r.aud[0] : r.aud;
      const token = await ctx.auth.sts.exchange(authorization, { aud, identity: r.identity || undefined });
      return JSON.stringify({ token });
    };
  }
  const kind = SERVICE_KINDS[service.typeName];
  if (kind === undefined) throw new Error(`no kind serves ${service.typeName}`);
  const callerOf = (c: Caller | undefined): Caller => {
    if (c === undefined) throw new Error("rpc without authentication");
    return c;
  };
  const special = specialStep(ctx, method, callerOf);
  if (special !== undefined) return special;
  switch (verbOf(method.name)) {
    case "Get": {
      const encodeRow = encodedRows.of(kind, method.output);
      return (request, caller) => {
        const got = s.getStored(callerOf(caller), kind, (request as Message & { uid: string }).uid);
        return encodeRow(got, got.stored);
      };
    }
    case "Delete":
      return (request, caller) => {
        s.delete(callerOf(caller), kind, (request as Message & { uid: string }).uid);
        return "{}";
      };
    case "List": {
      const items = itemsField(method.output, kind);
      const encodeRow = encodedRows.of(kind, items.message);
      return (request, caller) => {
        const page = s.listStored(callerOf(caller), kind, listQuery(method.input, request));
        return encodePage(method.output, items.number, page, encodeRow);
      };
    }
    case "Create": {
      const field = resourceField(method);
      return (request, caller) => {
        const r = request as Message & Record<string, unknown>;
        return s.create(callerOf(caller), kind, String(r.parent ?? ""), resourceBody(field, r));
      };
    }
    case "Update": {
      const field = resourceField(method);
      return (request, caller) => {
        const r = request as Message & Record<string, unknown>;
        const body = resourceBody(field, r);
        const uid = typeof body.uid === "string" ? body.uid : "";
        // The uid names the resource (the HTTP route's path); it is not a field to change.
        delete body.uid;
        return s.update(callerOf(caller), kind, uid, body, maskOf(request));
      };
    }
  }
}

// The rpcs that are not the five resource verbs over one message: a repo's readme (a sub-resource),
// the mappings' batch delete, and the overlay binding's create, whose request is the body itself.
function specialStep(
  ctx: AppContext,
  method: DescMethod,
  callerOf: (c: Caller | undefined) => Caller,
): Step | undefined {
  const s = ctx.service;
  switch (method.name) {
    case "GetRepoReadme":
      return (request, caller) => s.getReadme(callerOf(caller), (request as Message & { uid: string }).uid);
    case "UpdateRepoReadme": {
      const field = resourceField(method);
      return (request, caller) => {
        const body = resourceBody(field, request as Message & Record<string, unknown>);
        const uid = typeof body.uid === "string" ? body.uid : "";
        delete body.uid;
        return s.updateReadme(callerOf(caller), uid, body, maskOf(request));
      };
    }
    case "BatchDeleteExternalGroupRoleMappings":
      return (request, caller) => {
        const r = request as Message & { parent: string; names: string[] };
        return s.batchDeleteMappings(callerOf(caller), r.parent, r.names);
      };
    case "CreateOverlayBinding":
      return (request, caller) => {
        // The HTTP body is the request (`body: "*"`) but its parent, which names the repo in the path.
        const { parent, ...body } = toJson(method.input, request, { registry: WIRE_REGISTRY }) as JsonObject;
        return s.create(callerOf(caller), "overlayBindings", String(parent ?? ""), body);
      };
    default:
      return undefined;
  }
}

// The request field that carries the resource (`group` of CreateGroupRequest): the one whose type is
// the rpc's output message.
function resourceField(method: DescMethod): { localName: string; message: DescMessage } {
  const f = method.input.fields.find((x) => x.message?.typeName === method.output.typeName);
  if (f?.message === undefined) throw new Error(`${method.name} has no ${method.output.name} field`);
  return { localName: f.localName, message: f.message };
}

// The resource in its protojson form (lowerCamel names, fields left at their default omitted: the
// "fields present" of an update without a mask), checked as the HTTP body is.
function resourceBody(
  field: { localName: string; message: DescMessage },
  request: Record<string, unknown>,
): JsonObject {
  const value = request[field.localName] as Message | undefined;
  const body =
    value === undefined ? {} : (toJson(field.message, value, { registry: WIRE_REGISTRY }) as JsonObject);
  const violation = bodyViolation(body);
  if (violation !== undefined) throw invalidArgument([violation]);
  return body;
}

function maskOf(request: Message): string | undefined {
  const mask = (request as Message & { updateMask?: FieldMask }).updateMask;
  return mask === undefined || mask.paths.length === 0 ? undefined : mask.paths.join(",");
}

/**
 * The query string the HTTP route of a List would get for this request: the request's fields in
 * their proto names (as grpc-gateway maps them), nested messages as dotted names
 * (`uidp.descendants_of`), repeated fields as repeated parameters.
 *
 * @example
 * listQuery(ListGroupsRequestSchema, create(ListGroupsRequestSchema, { pageSize: 5, uidp: { childrenOf: org } }));
 * // { "uidp.children_of": org, page_size: "5" }
 */
export function listQuery(schema: DescMessage, request: Message): QueryValues {
  const json = toJson(schema, request, { useProtoFieldName: true, registry: WIRE_REGISTRY }) as JsonObject;
  const query: QueryValues = {};
  const flatten = (prefix: string, value: JsonValue) => {
    if (Array.isArray(value)) query[prefix] = value.map((v) => String(v));
    else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) flatten(`${prefix}.${k}`, v);
    } else if (value !== null) query[prefix] = String(value);
  };
  for (const [k, v] of Object.entries(json)) flatten(k, v);
  return query;
}

// The repeated field of a List's response that holds its rows (`groups` of ListGroupsResponse): the
// one named as the kind's collection, which the HTTP answer's rows are under.
function itemsField(schema: DescMessage, kind: KindName): { number: number; message: DescMessage } {
  const collection = KIND_RULES[kind].spec.collection;
  const f = schema.fields.find((x) => x.jsonName === collection || x.name === collection);
  if (f?.fieldKind !== "list" || f.listKind !== "message") {
    throw new Error(`${schema.typeName} has no repeated message field ${collection}`);
  }
  return { number: f.number, message: f.message };
}

// A List's answer: each row's encoding as one element of the repeated field, written by protobuf-es's
// BinaryWriter as toBinary writes a message element (tag, length, bytes); then the page's other
// fields, encoded by toBinary as the response message without its rows. Encoded messages joined are
// the encoding of their merge, so a parser reads the whole page.
function encodePage(
  schema: DescMessage,
  itemsNumber: number,
  page: StoredPage,
  encodeRow: RowEncoder,
): Uint8Array {
  const writer = new BinaryWriter();
  for (const stored of page.rows) {
    writer.tag(itemsNumber, WireType.LengthDelimited).bytes(encodeRow(page, stored));
  }
  const rest: Record<string, unknown> = { totalCount: String(page.totalCount), skipped: page.skipped };
  if (page.nextPageToken !== undefined) rest.nextPageToken = page.nextPageToken;
  return writer.raw(encodeMessage(schema, rest)).finish();
}

// The rpc's answer in its binary encoding, ready for the wire: a read's bytes as they are, a write's
// JSON text as the rpc's message encoded by protobuf-es.
function encodeAnswer(schema: DescMessage, answer: Answer): Uint8Array {
  if (answer instanceof Uint8Array) return answer;
  if (schema.typeName === EmptySchema.typeName) return EMPTY;
  return encodeMessage(schema, JSON.parse(answer) as JsonObject);
}

// An injected reset: the connection dies (as the HTTP transport's socket does).
function resetConnection(call: RpcCall): never {
  call.resetConnection();
  throw new ConnectError("injected fault: connection reset", Code.Unavailable);
}
