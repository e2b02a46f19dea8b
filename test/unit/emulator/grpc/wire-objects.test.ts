import type { DescField, DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { equals, fromJson, ScalarType, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { wireMessage } from "../../../../emulator/grpc/wire-objects.js";
import { API_SERVICES, WIRE_REGISTRY } from "../../../../emulator/grpc/wire-types.js";

// Every message the gRPC transport answers with, and every message they hold.
function answerMessages(): DescMessage[] {
  const seen = new Map<string, DescMessage>();
  const walk = (m: DescMessage) => {
    if (seen.has(m.typeName)) return;
    seen.set(m.typeName, m);
    for (const f of m.fields) if (f.message !== undefined) walk(f.message);
  };
  for (const s of API_SERVICES) for (const m of s.methods) walk(m.output);
  // The well-known types have JSON forms of their own (a Timestamp is a string): tested as fields.
  return [...seen.values()].filter((m) => !m.typeName.startsWith("google.protobuf."));
}

// A protojson value for a field, as the service core writes it; `variant` picks among the forms.
function sampleValue(f: DescField, variant: number, depth: number): JsonValue | undefined {
  const scalar = (type: ScalarType): JsonValue => {
    switch (type) {
      case ScalarType.STRING:
        return `s${variant}-${f.name}`;
      case ScalarType.BOOL:
        return variant % 2 === 0;
      case ScalarType.BYTES:
        return "aGVsbG8=";
      case ScalarType.INT64:
      case ScalarType.SINT64:
      case ScalarType.SFIXED64:
      case ScalarType.UINT64:
      case ScalarType.FIXED64:
        return variant % 2 === 0 ? "9007199254740993" : 42;
      default:
        return variant + 7;
    }
  };
  const message = (m: DescMessage): JsonValue | undefined => {
    switch (m.typeName) {
      case "google.protobuf.Timestamp":
        return ["2026-11-23T10:00:00.000Z", "2026-11-23T10:00:00.123456789Z", "2026-11-23T12:00:00+02:00"][
          variant % 3
        ] as string;
      case "google.protobuf.Duration":
        return "3.5s";
      default:
        return depth > 3 ? {} : sample(m, variant, depth + 1);
    }
  };
  const enumName = (values: readonly { name: string }[]) =>
    values[Math.min(values.length - 1, 1 + (variant % 2))]?.name as string;
  switch (f.fieldKind) {
    case "scalar":
      return scalar(f.scalar);
    case "enum":
      return enumName(f.enum.values);
    case "message":
      return message(f.message);
    case "list": {
      const one = () =>
        f.listKind === "scalar"
          ? scalar(f.scalar)
          : f.listKind === "enum"
            ? enumName(f.enum.values)
            : (message(f.message) ?? {});
      return [one(), one()];
    }
    case "map": {
      const v =
        f.mapKind === "scalar"
          ? scalar(f.scalar)
          : f.mapKind === "enum"
            ? enumName(f.enum.values)
            : message(f.message);
      const keys =
        f.mapKey === ScalarType.STRING ? ["a", "b.c"] : f.mapKey === ScalarType.BOOL ? ["true"] : ["1", "-2"];
      return Object.fromEntries(keys.map((k) => [k, v ?? {}]));
    }
  }
}

// Every field set (one member of each oneof, chosen by `variant`), or left unset as null or "".
function sample(m: DescMessage, variant: number, depth = 0): JsonObject {
  const out: JsonObject = {};
  for (const f of m.fields) {
    if (f.oneof !== undefined && f.oneof.fields[variant % f.oneof.fields.length] !== f) continue;
    // Unset fields as grpc-gateway writes them: null for messages, in every third sample.
    if (variant % 3 === 2 && f.fieldKind === "message") {
      out[f.jsonName] = null;
      continue;
    }
    const v = sampleValue(f, variant, depth);
    if (v !== undefined) out[variant % 2 === 0 ? f.jsonName : f.name] = v;
  }
  return out;
}

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
