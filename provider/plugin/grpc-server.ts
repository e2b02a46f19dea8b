import * as grpc from "@grpc/grpc-js";
// The generated stubs @pulumi/pulumi ships are CommonJS whose exports Node cannot list statically:
// default imports (the whole `module.exports`), which the plugin's bundler also follows.
import pluginPb from "@pulumi/pulumi/proto/plugin_pb.js";
import type * as providerGrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import services from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import type * as providerPbTypes from "@pulumi/pulumi/proto/provider_pb.js";
import pb from "@pulumi/pulumi/proto/provider_pb.js";
import emptyPb from "google-protobuf/google/protobuf/empty_pb.js";
import structPb from "google-protobuf/google/protobuf/struct_pb.js";
import type { Props } from "../runtime/index.js";
import { partialCreateOf, ResourceInitFailed } from "./init-failure.js";
import type { NativeCheckFailure, NativeProvider } from "./native-provider.js";
import { unwrapSecrets, wrapSecrets } from "./property-values.js";

const { Struct } = structPb;
const { Empty } = emptyPb;

type Struct = structPb.Struct;
type Server = providerGrpcTypes.IResourceProviderServer;

/**
 * What the plugin serves besides the provider: its version and its schema text.
 *
 * @example
 * const info: PluginInfo = { version: "0.1.0", schema: readFileSync("schema.json", "utf8") };
 */
export interface PluginInfo {
  version: string;
  schema: string;
}

/**
 * Pulumi's ResourceProvider gRPC service on top of a {@link NativeProvider}: property maps in and
 * out (secrets unwrapped on the way in and marked again on the way out), the detailed diff, errors
 * as one message. Methods it does not list (Construct, Call, Parameterize, …) answer UNIMPLEMENTED,
 * which the engine treats as "not supported".
 *
 * @example
 * server.addService(services.ResourceProviderService, resourceProviderService(new NativeProvider(), info));
 */
export function resourceProviderService(
  provider: NativeProvider,
  info: PluginInfo,
  onCancel: () => void = () => {},
): grpc.UntypedServiceImplementation {
  const handlers: Partial<Server> = {
    getSchema: unary(async () => new pb.GetSchemaResponse().setSchema(info.schema)),
    getPluginInfo: unary(async () => new pluginPb.PluginInfo().setVersion(info.version)),
    // An engine run with PULUMI_DEBUG_PROVIDERS=irv:<port> attaches to a plugin it did not start
    // (one under a debugger): the plugin calls nothing back on the engine, so there is nothing to keep.
    attach: unary(async () => new Empty()),
    cancel: unary(async () => {
      onCancel();
      return new Empty();
    }),
    checkConfig: unary(async (req: providerPbTypes.CheckRequest) => {
      const news = plain(req.getNews());
      return new pb.CheckResponse()
        .setInputs(req.getNews() ?? new Struct())
        .setFailuresList(failures(provider.checkConfig(news)));
    }),
    diffConfig: unary(async (req: providerPbTypes.DiffRequest) => {
      const olds = plain(req.getOlds());
      const news = plain(req.getNews());
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])];
      const changed = keys.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      return new pb.DiffResponse()
        .setChanges(
          changed.length ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE,
        )
        .setDiffsList(changed);
    }),
    configure: unary(async (req: providerPbTypes.ConfigureRequest) => {
      const args = req.getArgs();
      const config: Props = args ? plain(args) : {};
      // Engines before typed configuration send `irv:config:<key>` variables only.
      if (!args)
        for (const [key, value] of req.getVariablesMap().entries())
          config[key.split(":").pop() ?? key] = value;
      provider.configure(config);
      return new pb.ConfigureResponse()
        .setAcceptsecrets(true)
        .setSupportspreview(true)
        .setAcceptresources(false)
        .setAcceptoutputs(false);
    }),
    check: unary(async (req: providerPbTypes.CheckRequest) => {
      const news = unwrapSecrets(toJs(req.getNews()));
      const name = req.getName() || req.getUrn().split("::").pop() || "";
      const { inputs, failures: found } = await provider.check(
        req.getType() || typeOfUrn(req.getUrn()),
        name,
        news.values,
      );
      return new pb.CheckResponse()
        .setInputs(toStruct(wrapSecrets(inputs, news.secrets)))
        .setFailuresList(failures(found));
    }),
    diff: unary(async (req: providerPbTypes.DiffRequest) => {
      const d = provider.diff(
        req.getType() || typeOfUrn(req.getUrn()),
        plain(req.getOlds()),
        plain(req.getNews()),
      );
      const res = new pb.DiffResponse()
        .setChanges(
          d.changed.length ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE,
        )
        .setDiffsList(d.changed)
        .setReplacesList(d.replaces)
        .setDeletebeforereplace(d.deleteBeforeReplace)
        .setHasdetaileddiff(true);
      const map = res.getDetaileddiffMap();
      for (const [key, change] of Object.entries(d.detailed)) map.set(key, propertyDiff(change));
      return res;
    }),
    create: unary(async (req: providerPbTypes.CreateRequest) => {
      const token = req.getType() || typeOfUrn(req.getUrn());
      const inputs = unwrapSecrets(toJs(req.getProperties()));
      const { id, outs } = await provider
        .create(token, inputs.values, req.getPreview())
        .catch((e: unknown) => {
          // The resource exists although the create failed: the engine records it rather than leak it.
          const partial = partialCreateOf(e);
          if (!partial) throw e;
          const message = e instanceof Error ? e.message : String(e);
          throw new ResourceInitFailed(message, {
            id: partial.id,
            properties: toStruct(
              secretOuts(provider, token, partial.properties ?? inputs.values, inputs.secrets),
            ),
            inputs: req.getProperties() ?? new Struct(),
            // The engine shows the reasons, not the message: without reasons, the message is the one.
            reasons: partial.reasons.length > 0 ? partial.reasons : [message],
          });
        });
      return new pb.CreateResponse()
        .setId(id)
        .setProperties(toStruct(secretOuts(provider, token, outs, inputs.secrets)));
    }),
    read: unary(async (req: providerPbTypes.ReadRequest) => {
      const token = req.getType() || typeOfUrn(req.getUrn());
      const state = unwrapSecrets(toJs(req.getProperties()));
      const oldInputs = unwrapSecrets(toJs(req.getInputs()));
      // An import has no state yet: the id alone says what to read.
      const read = await provider.read(token, req.getId(), state.values);
      const res = new pb.ReadResponse()
        .setId(read.id)
        .setProperties(toStruct(secretOuts(provider, token, read.outs, state.secrets)));
      if (read.inputs) res.setInputs(toStruct(secretOuts(provider, token, read.inputs, oldInputs.secrets)));
      return res;
    }),
    update: unary(async (req: providerPbTypes.UpdateRequest) => {
      const token = req.getType() || typeOfUrn(req.getUrn());
      const olds = unwrapSecrets(toJs(req.getOlds()));
      const news = unwrapSecrets(toJs(req.getNews()));
      const outs = await provider.update(token, req.getId(), olds.values, news.values, req.getPreview());
      return new pb.UpdateResponse().setProperties(
        toStruct(secretOuts(provider, token, outs, [...olds.secrets, ...news.secrets])),
      );
    }),
    delete: unary(async (req: providerPbTypes.DeleteRequest) => {
      await provider.delete(
        req.getType() || typeOfUrn(req.getUrn()),
        req.getId(),
        plain(req.getProperties()),
      );
      return new Empty();
    }),
    invoke: unary(async (req: providerPbTypes.InvokeRequest) => {
      const result = await provider.invoke(req.getTok(), plain(req.getArgs()));
      return new pb.InvokeResponse().setReturn(toStruct(result));
    }),
  };
  // grpc-js answers UNIMPLEMENTED for every method the object lacks.
  return handlers as grpc.UntypedServiceImplementation;
}

/**
 * The gRPC service definition the handlers above implement.
 *
 * @example
 * server.addService(RESOURCE_PROVIDER_SERVICE, resourceProviderService(provider, info));
 */
export const RESOURCE_PROVIDER_SERVICE: grpc.ServiceDefinition = services.ResourceProviderService;

// Secrets the program marked stay secrets, and so do the kind's own credentials (an invite code).
function secretOuts(provider: NativeProvider, token: string, outs: Props, secrets: readonly string[]): Props {
  return wrapSecrets(outs, [...secrets, ...(provider.kind(token).secrets ?? [])]);
}

function propertyDiff(change: { kind: "add" | "delete" | "update"; replace: boolean }) {
  const K = pb.PropertyDiff.Kind;
  const kind = {
    add: change.replace ? K.ADD_REPLACE : K.ADD,
    delete: change.replace ? K.DELETE_REPLACE : K.DELETE,
    update: change.replace ? K.UPDATE_REPLACE : K.UPDATE,
  }[change.kind];
  return new pb.PropertyDiff().setKind(kind).setInputdiff(true);
}

function failures(found: readonly NativeCheckFailure[]) {
  return found.map((f) => new pb.CheckFailure().setProperty(f.property).setReason(f.reason));
}

// Old engines leave `type` empty: the URN ends with `::<type>::<name>`.
function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  return (parts[parts.length - 2] ?? "").split("$").pop() ?? "";
}

function toJs(s: Struct | undefined): Props {
  return (s?.toJavaScript() ?? {}) as Props;
}

function plain(s: Struct | undefined): Props {
  return unwrapSecrets(toJs(s)).values;
}

function toStruct(p: Props): Struct {
  // Struct has no `undefined`: an absent output is left out, as JSON would.
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(p)));
}

/**
 * One unary handler: the answer, or the failure as one gRPC error whose message is the one the
 * engine shows (no stack: the message already names the operation, URL, cause and setting).
 */
function unary<Req, Res>(fn: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (res) => callback(null, res),
      (e: unknown) =>
        callback({
          code: grpc.status.UNKNOWN,
          details: e instanceof Error ? e.message : String(e),
          metadata: e instanceof ResourceInitFailed ? e.metadata : new grpc.Metadata(),
          name: "Error",
          message: e instanceof Error ? e.message : String(e),
        }),
    );
  };
}
