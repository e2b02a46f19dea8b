import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { hideRpcResponseValues } from "../../../provider/resource/hide-rpc-response-values.js";

type Message = { setUrn(urn: string): Message; toString(): string } & Record<string, (v: unknown) => Message>;
type MessageClass = new () => Message;
const require = createRequire(import.meta.url);
const proto = require("@pulumi/pulumi/proto/resource_pb.js") as Record<string, MessageClass>;
const { Struct } = require("google-protobuf/google/protobuf/struct_pb.js") as {
  Struct: { fromJavaScript(o: object): unknown };
};

const URN = "urn:pulumi:test::p::pulumi-nodejs:dynamic/irv:GroupInvite::dev";
// What the engine answers for a secret output: its plain value inside the secret wrapper.
const outputs = Struct.fromJavaScript({
  code: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "invite-code-7f3a" },
});

describe("hideRpcResponseValues", () => {
  // Regression: @pulumi/pulumi's debug message "RegisterResource RPC finished: …; resp: ${resp}"
  // printed an invite's code in plain text into the engine's debug events.
  // Each answer and the setter of its outputs.
  const answers = { RegisterResourceResponse: "setObject", ReadResourceResponse: "setProperties" };
  for (const [name, setOutputs] of Object.entries(answers))
    it(`makes a ${name} print its URN and none of its values`, () => {
      const response = new (proto[name] as MessageClass)().setUrn(URN);
      response[setOutputs]?.(outputs);
      hideRpcResponseValues();
      expect(`resp: ${response}`).toBe(`resp: ${name}{urn: ${URN}, values not shown}`);
    });

  it("leaves other protobuf messages as they print", () => {
    hideRpcResponseValues();
    expect(String(outputs)).toContain("invite-code-7f3a");
  });
});
