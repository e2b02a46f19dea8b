import type { DescMessage } from "@bufbuild/protobuf";
import { equals, fromJson, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { wireMessage } from "../../../../emulator/grpc/wire-objects.js";
import { WIRE_REGISTRY } from "../../../../emulator/grpc/wire-types.js";
import { answerMessages, sample } from "./wire-samples.js";

describe("wireMessage: the gRPC answer built from the service core's wire object (issue 47)", () => {
  const messages = answerMessages();

  it("covers the answers' enums, timestamps, maps, oneofs, nested and 64-bit fields", () => {
    const kinds = new Set(
      messages.flatMap((m) =>
        m.fields.map((f) =>
          f.message?.typeName === "google.protobuf.Timestamp" ? "timestamp" : f.fieldKind,
        ),
      ),
    );
    expect([...kinds].sort()).toEqual(["enum", "list", "map", "message", "scalar", "timestamp"]);
    expect(messages.some((m) => m.oneofs.length > 0)).toBe(true);
    expect(messages.length).toBeGreaterThan(40);
  });

  it("every message the transport answers with equals protobuf-es fromJson of the same object", () => {
    for (const m of messages) {
      for (const variant of [0, 1, 2, 3]) {
        const json = sample(m, variant);
        const expected = fromJson(m, json, { registry: WIRE_REGISTRY });
        const actual = wireMessage(m, structuredClone(json));
        // Equal as messages and byte for byte on the wire.
        expect(equals(m, actual, expected), `${m.typeName} #${variant}`).toBe(true);
        expect(toBinary(m, actual), `${m.typeName} #${variant}`).toEqual(toBinary(m, expected));
      }
    }
  });

  it("leaves the object it reads unchanged (the service core may hold it)", () => {
    const m = messages.find((x) => x.typeName.endsWith("v2.Identity")) as DescMessage;
    const json = sample(m, 1);
    const before = structuredClone(json);
    wireMessage(m, json);
    expect(json).toEqual(before);
  });

  it("refuses what fromJson refuses, with its message: an unknown field, an unknown enum name", () => {
    const group = messages.find((x) => x.typeName === "chainguard.platform.iam.v2.Group") as DescMessage;
    expect(() => wireMessage(group, { uid: "x", colour: "red" })).toThrow(/colour/);
    const role = messages.find((x) => x.typeName === "chainguard.platform.iam.v2.Role") as DescMessage;
    expect(() => wireMessage(role, { capabilities: ["CAP_NOT_ONE"] })).toThrow(/CAP_NOT_ONE/);
  });
});
