import type { DescField, DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import { API_SERVICES } from "../../../../emulator/grpc/wire-types.js";

/**
 * Every message the gRPC transport answers with, and every message they hold (the well-known types
 * left out: they have JSON forms of their own, tested as fields).
 *
 * @example
 * for (const m of answerMessages()) expect(wireMessage(m, sample(m, 0))).toBeDefined();
 */
export function answerMessages(): DescMessage[] {
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

/**
 * A protojson object of a message as the service core writes it: every field set (one member of each
 * oneof, chosen by `variant`), under its JSON name (even variants) or proto name (odd), messages left
 * unset as null in every third; timestamps in UTC, with nanoseconds, or with an offset.
 *
 * @example
 * sample(GroupSchema, 1); // { uid: "s1-uid", name: "s1-name", create_time: "2026-11-23T10:00:00.123456789Z", … }
 */
export function sample(m: DescMessage, variant: number, depth = 0): JsonObject {
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
