import type { DescEnum, DescField, DescMessage, JsonObject, JsonValue, Message } from "@bufbuild/protobuf";
import { create, mergeFromJson, ScalarType } from "@bufbuild/protobuf";
import { WIRE_REGISTRY } from "./wire-types.js";

// A field value this converter leaves to protobuf-es's own protojson reader (bytes, durations, an
// enum name it does not know, a timestamp with an offset, …): rare, and then decoded exactly as
// `fromJson` decodes it, errors included.
const DEFER = Symbol("defer");
type Convert = (value: JsonValue) => unknown;

const converters = new Map<string, (json: JsonObject) => Message>();

/**
 * The rpc answer for the service core's wire object (its protojson form): the published message,
 * built field by field by a converter compiled once per message from its descriptor, without
 * protobuf-es's generic `fromJson` walk (the most of a gRPC LIST page's cost, issue 47). The
 * conversions are those of protojson: enum names to numbers, RFC 3339 strings to Timestamp, 64-bit
 * integers from their decimal strings, oneof members into their case, null as unset. What it does not
 * convert itself it hands to protobuf-es's protojson reader, so the message is the one `fromJson`
 * gives, whatever the object holds.
 *
 * @example
 * const group = wireMessage(GroupSchema, { uid, name: "eng", createTime: "2026-11-23T10:00:00.000Z" });
 * group.createTime?.seconds; // 1795428000n
 */
export function wireMessage<T extends Message>(schema: DescMessage, json: JsonObject): T {
  let convert = converters.get(schema.typeName);
  if (convert === undefined) {
    convert = compileMessage(schema);
    converters.set(schema.typeName, convert);
  }
  return convert(json) as T;
}

interface FieldStep {
  field: DescField;
  convert: Convert;
}

function compileMessage(schema: DescMessage): (json: JsonObject) => Message {
  const byKey = new Map<string, FieldStep>();
  // Compiled lazily: a message may hold itself (directly or not).
  let compiled = false;
  const compile = () => {
    for (const field of schema.fields) {
      const step = { field, convert: fieldConverter(field) };
      byKey.set(field.jsonName, step);
      byKey.set(field.name, step);
    }
    compiled = true;
  };
  return (json) => {
    if (!compiled) compile();
    const message = create(schema) as unknown as Record<string, unknown>;
    let deferred: JsonObject | undefined;
    for (const key in json) {
      const value = json[key] as JsonValue;
      const step = byKey.get(key);
      // null is protojson's "unset" for every field this API has (no google.protobuf.Value).
      if (step !== undefined && value === null) continue;
      const converted = step === undefined ? DEFER : step.convert(value);
      if (converted === DEFER) {
        deferred ??= {};
        deferred[key] = value;
        continue;
      }
      const field = (step as FieldStep).field;
      if (field.oneof !== undefined)
        message[field.oneof.localName] = { case: field.localName, value: converted };
      else message[field.localName] = converted;
    }
    if (deferred !== undefined)
      mergeFromJson(schema, message as unknown as Message, deferred, { registry: WIRE_REGISTRY });
    return message as unknown as Message;
  };
}

function fieldConverter(field: DescField): Convert {
  switch (field.fieldKind) {
    case "scalar":
      return scalarConverter(field.scalar, field.longAsString);
    case "enum":
      return enumConverter(field.enum);
    case "message":
      return messageConverter(field.message);
    case "list": {
      const element =
        field.listKind === "scalar"
          ? scalarConverter(field.scalar, field.longAsString)
          : field.listKind === "enum"
            ? enumConverter(field.enum)
            : messageConverter(field.message);
      return (value) => {
        if (!Array.isArray(value)) return DEFER;
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          const v = value[i] === null ? DEFER : element(value[i] as JsonValue);
          if (v === DEFER) return DEFER;
          out[i] = v;
        }
        return out;
      };
    }
    case "map": {
      // Map keys other than strings (none in this API) are left to the protojson reader.
      if (field.mapKey !== ScalarType.STRING) return () => DEFER;
      // 64-bit map values (none either) too: how they are held is the reader's business.
      const element =
        field.mapKind === "scalar"
          ? [ScalarType.STRING, ScalarType.BOOL, ScalarType.INT32].includes(field.scalar)
            ? scalarConverter(field.scalar, false)
            : () => DEFER
          : field.mapKind === "enum"
            ? enumConverter(field.enum)
            : messageConverter(field.message);
      return (value) => {
        if (value === null || typeof value !== "object" || Array.isArray(value)) return DEFER;
        const out: Record<string, unknown> = {};
        for (const key in value) {
          const v = value[key] === null ? DEFER : element(value[key] as JsonValue);
          if (v === DEFER) return DEFER;
          out[key] = v;
        }
        return out;
      };
    }
  }
}

function scalarConverter(type: ScalarType, longAsString: boolean): Convert {
  switch (type) {
    case ScalarType.STRING:
      return (v) => (typeof v === "string" ? v : DEFER);
    case ScalarType.BOOL:
      return (v) => (typeof v === "boolean" ? v : DEFER);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return (v) => (typeof v === "number" && Number.isInteger(v) && v === (v | 0) ? v : DEFER);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return (v) => {
        const text = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : v;
        if (typeof text !== "string" || !/^-?(0|[1-9]\d{0,18})$/.test(text)) return DEFER;
        const n = BigInt(text);
        // Outside int64: the protojson reader names the error.
        if (n > 9223372036854775807n || n < -9223372036854775808n) return DEFER;
        return longAsString ? n.toString() : n;
      };
    default:
      // Unsigned, floating and bytes fields: the protojson reader's rules (none on the hot path).
      return () => DEFER;
  }
}

function enumConverter(e: DescEnum): Convert {
  const numbers = new Map(e.values.map((v) => [v.name, v.number]));
  return (v) => (typeof v === "string" ? (numbers.get(v) ?? DEFER) : DEFER);
}

const RFC3339_UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/;

function messageConverter(schema: DescMessage): Convert {
  if (schema.typeName === "google.protobuf.Timestamp") {
    return (v) => {
      const t = typeof v === "string" ? timestampOf(v) : undefined;
      if (t === undefined) return DEFER;
      // The message create() makes, as a literal: a page holds two for each row.
      return { $typeName: "google.protobuf.Timestamp", seconds: t.seconds, nanos: t.nanos };
    };
  }
  // Other well-known types (Duration, wrappers, Struct) have their own JSON forms.
  if (schema.typeName.startsWith("google.protobuf.")) return () => DEFER;
  return (v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? wireMessage(schema, v) : DEFER);
}

// The times a page holds repeat (a row's create and update time, rows written together): parsed once.
const timestamps = new Map<string, { seconds: bigint; nanos: number } | undefined>();

/**
 * A google.protobuf.Timestamp's fields for an RFC 3339 time in UTC (`Z`), as protojson reads it;
 * undefined for any other form (an offset, a leap second, out of range), which is then the protojson
 * reader's to convert or refuse.
 *
 * @example
 * timestampOf("2026-11-23T10:00:00.5Z"); // { seconds: 1795428000n, nanos: 500000000 }
 */
export function timestampOf(text: string): { seconds: bigint; nanos: number } | undefined {
  if (timestamps.has(text)) return timestamps.get(text);
  const m = RFC3339_UTC.exec(text);
  const ms = m === null ? Number.NaN : Date.parse(`${m[1]}Z`);
  // Offsets, leap seconds or out-of-range values: the protojson reader's rules.
  const t =
    m === null || !Number.isFinite(ms) || ms < -62135596800000 || ms > 253402300799000
      ? undefined
      : { seconds: BigInt(ms / 1000), nanos: m[2] === undefined ? 0 : Number(m[2].padEnd(9, "0")) };
  if (timestamps.size >= 10_000) timestamps.clear();
  timestamps.set(text, t);
  return t;
}
