// A create whose resource exists although the create failed, over the plugin's gRPC interface: the
// engine learns of it from an ErrorResourceInitFailed detail and records it instead of leaking it.
import * as grpc from "@grpc/grpc-js";
import services from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import pb from "@pulumi/pulumi/proto/provider_pb.js";
import statusPb from "@pulumi/pulumi/proto/status_pb.js";
import structPb from "google-protobuf/google/protobuf/struct_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NativeProvider,
  RESOURCE_PROVIDER_SERVICE,
  resourceProviderService,
  resourceTokens,
} from "../../../../provider/plugin/index.js";
import type { Props } from "../../../../provider/runtime/index.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";
const GROUP = `${ORG}/0123456789abcdef`;
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

// The kind table's creates are one POST each; this one fails after its POST, as a create with a
// second step would, the way the dynamic providers report it (an Error with id, properties, reasons).
class PartlyFailing extends NativeProvider {
  override async create(_token: string, inputs: Props): Promise<{ id: string; outs: Props }> {
    if (inputs.name === "made-nothing") throw new Error('creating group "made-nothing": refused');
    throw Object.assign(new Error(`creating group "${inputs.name}": the second step failed`), {
      id: GROUP,
      properties: { ...inputs, uid: GROUP },
      reasons: ["the second step failed"],
    });
  }
}

describe("a partial create over gRPC", () => {
  let server: grpc.Server;
  let client: InstanceType<typeof services.ResourceProviderClient>;

  beforeAll(async () => {
    server = new grpc.Server();
    server.addService(
      RESOURCE_PROVIDER_SERVICE,
      resourceProviderService(new PartlyFailing(resourceTokens()), { version: "0.0.0", schema: "{}" }),
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });

  afterAll(() => {
    client?.close();
    server?.forceShutdown();
  });

  const create = (properties: Props) =>
    new Promise<grpc.ServiceError>((resolve, reject) => {
      const req = new pb.CreateRequest()
        .setUrn("urn:pulumi:dev::p::irv:iam:Group::team")
        .setType("irv:iam:Group")
        .setProperties(structPb.Struct.fromJavaScript(properties as never));
      client.create(req, (err) => (err ? resolve(err) : reject(new Error("the create succeeded"))));
    });

  const initFailed = (err: grpc.ServiceError) => {
    const [bin] = err.metadata.get("grpc-status-details-bin");
    if (!bin) return undefined;
    const [any] = statusPb.Status.deserializeBinary(bin as Buffer).getDetailsList();
    return any?.unpack(pb.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
  };

  it("returns the id, the properties and the reasons, so the engine records the resource", async () => {
    const err = await create({ parentUid: ORG, name: "team" });
    expect(err.details).toBe('creating group "team": the second step failed');
    const detail = initFailed(err);
    expect(detail?.getId()).toBe(GROUP);
    expect(detail?.getProperties()?.toJavaScript()).toEqual({ parentUid: ORG, name: "team", uid: GROUP });
    expect(detail?.getInputs()?.toJavaScript()).toEqual({ parentUid: ORG, name: "team" });
    expect(detail?.getReasonsList()).toEqual(["the second step failed"]);
  });

  it("keeps a secret input a secret in the recorded properties", async () => {
    const secret = { "4dabf18193072939515e22adb298388d": SECRET_SIG, value: "hidden" };
    const detail = initFailed(await create({ parentUid: ORG, name: "team", description: secret }));
    expect(detail?.getProperties()?.toJavaScript().description).toEqual(secret);
  });

  it("is a plain error when the create made nothing", async () => {
    const err = await create({ parentUid: ORG, name: "made-nothing" });
    expect(err.details).toBe('creating group "made-nothing": refused');
    expect(initFailed(err)).toBeUndefined();
  });
});
