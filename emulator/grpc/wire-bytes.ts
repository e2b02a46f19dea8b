import type { DescEnum, DescField, DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { ScalarType, toBinary } from "@bufbuild/protobuf";
import { timestampOf, wireMessage } from "./wire-objects.js";

// Field presence as protobuf-es describes it (google.protobuf.FeatureSet.FieldPresence): an
// implicit-presence field is written only when it is not its zero value.
const IMPLICIT = 2;
// Wire types (protobuf encoding): varint and length-delimited are all this API's answers use.
const VARINT = 0;
const LENGTH_DELIMITED = 2;

/**
 * The rpc answer for the service core's wire object (its protojson form), in protobuf's binary
 * encoding: the bytes `toBinary(schema, fromJson(schema, json))` gives, written straight from the
 * object by an encoder compiled once per message from its descriptor. A LIST page of 200 groups is
 * built without 200 message objects and protobuf-es's reflective writer, which cost more than the
 * HTTP transport's whole answer (issue 47). The conversions are those of protojson, as
 * {@link wireMessage}'s; a message holding anything else (a Duration, bytes, an unknown field, a
 * timestamp with an offset, …) is encoded through {@link wireMessage} and `toBinary`, so its bytes and
 * errors are theirs.
 *
 * @example
 * const bytes = wireBytes(GroupSchema, { uid, name: "eng", createTime: "2026-11-23T10:00:00.000Z" });
 * fromBinary(GroupSchema, bytes).name; // "eng"
 */
export function wireBytes(schema: DescMessage, json: JsonObject): Buffer {
  pos = 0;
  if (!encoderOf(schema)(json)) return Buffer.from(toBinary(schema, wireMessage(schema, json)));
  const out = Buffer.allocUnsafe(pos);
  buf.copy(out, 0, 0, pos);
  return out;
}

// The scratch the answer is written into, grown as needed; encoding is synchronous, so one serves
// every call.
let buf = Buffer.allocUnsafe(64 * 1024);
let pos = 0;

function ensure(n: number): void {
  if (pos + n <= buf.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, pos + n));
  buf.copy(bigger, 0, 0, pos);
  buf = bigger;
}

function varint(n: number): void {
  ensure(10);
  if (n >= 0 && n <= 0x7fffffff) {
    while (n > 0x7f) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
  } else if (n >= 0 && n <= Number.MAX_SAFE_INTEGER) {
    while (n > 0x7f) {
      buf[pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    buf[pos++] = n;
  } else varint64(BigInt(n));
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// Negative values are their 64-bit two's complement (ten bytes), int32 as int64.
function varint64(n: bigint): void {
  if (n >= 0n && n <= MAX_SAFE) {
    varint(Number(n));
    return;
  }
  ensure(10);
  let u = BigInt.asUintN(64, n);
  while (u > 0x7fn) {
    buf[pos++] = Number(u & 0x7fn) | 0x80;
    u >>= 7n;
  }
  buf[pos++] = Number(u);
}

function tag(fieldNo: number, wireType: number): void {
  varint((fieldNo << 3) | wireType);
}

function string(s: string): void {
  const n = s.length;
  ensure(5 + 3 * n);
  if (n < 0x80) {
    // Written after one byte kept for its length, which takes two only past 127 bytes (non-ASCII).
    const length = buf.write(s, pos + 1, "utf8");
    if (length < 0x80) buf[pos] = length;
    else {
      buf.copyWithin(pos + 2, pos + 1, pos + 1 + length);
      buf[pos] = (length & 0x7f) | 0x80;
      buf[pos + 1] = length >>> 7;
      pos++;
    }
    pos += 1 + length;
    return;
  }
  // Lone surrogates become U+FFFD, as TextEncoder (protobuf-es's) makes them.
  varint(Buffer.byteLength(s, "utf8"));
  pos += buf.write(s, pos, "utf8");
}

// A length-delimited body is written in place: one byte is kept for its length (begin), and the body
// moved on in the rare case its length takes more (end).
function begin(): number {
  ensure(1);
  return pos++;
}

function end(start: number): void {
  const length = pos - start - 1;
  if (length < 0x80) {
    buf[start] = length;
    return;
  }
  let extra = 0;
  for (let n = length >>> 7; n > 0x7f; n >>>= 7) extra++;
  extra++;
  ensure(extra);
  buf.copyWithin(start + 1 + extra, start + 1, pos);
  const after = pos + extra;
  pos = start;
  varint(length);
  pos = after;
}

// Writes one message's fields from its wire object; false where it holds what it cannot write.
type Encoder = (json: JsonObject) => boolean;
// Writes one value with its tag, or false.
type ValueWriter = (value: JsonValue) => boolean;

const encoders = new Map<string, Encoder>();

function encoderOf(schema: DescMessage): Encoder {
  let encoder = encoders.get(schema.typeName);
  if (encoder === undefined) {
    encoder = compileMessage(schema);
    encoders.set(schema.typeName, encoder);
  }
  return encoder;
}

// A message's fields in protobuf-es's order (by number), each found under its JSON or proto name,
// null as unset; an unknown key, a key given twice or two members of a oneof are not written here.
function compileMessage(schema: DescMessage): Encoder {
  const fields = schema.fields.concat().sort((a, b) => a.number - b.number);
  const slotOf = new Map<string, number>();
  fields.forEach((f, i) => {
    slotOf.set(f.jsonName, i);
    slotOf.set(f.name, i);
  });
  const oneofOf = fields.map((f) => (f.oneof === undefined ? -1 : schema.oneofs.indexOf(f.oneof)));
  // Compiled on first use: a message may hold itself.
  let writers: ValueWriter[] | undefined;
  return (json) => {
    writers ??= fields.map(fieldWriter);
    const slots = new Array<JsonValue | undefined>(fields.length);
    for (const key in json) {
      const slot = slotOf.get(key);
      const value = json[key];
      if (slot === undefined || slots[slot] !== undefined || value === undefined) return false;
      slots[slot] = value;
    }
    let oneofsSet = 0;
    for (let i = 0; i < slots.length; i++) {
      const value = slots[i];
      if (value === undefined || value === null) continue;
      const oneof = oneofOf[i] as number;
      if (oneof >= 0) {
        if (oneofsSet & (1 << oneof)) return false;
        oneofsSet |= 1 << oneof;
      }
      if (!(writers[i] as ValueWriter)(value)) return false;
    }
    return true;
  };
}

function fieldWriter(field: DescField): ValueWriter {
  const no = field.number;
  // Set when not zero; a oneof member or an `optional` field whenever present.
  const implicit = field.presence === IMPLICIT && field.oneof === undefined;
  switch (field.fieldKind) {
    case "scalar": {
      const write = scalarWriter(field.scalar, no, implicit);
      return write ?? (() => false);
    }
    case "enum": {
      const number = enumNumbers(field.enum);
      const zero = field.enum.values[0]?.number;
      return (value) => {
        const n = typeof value === "string" ? number.get(value) : undefined;
        if (n === undefined) return false;
        if (implicit && n === zero) return true;
        tag(no, VARINT);
        varint(n);
        return true;
      };
    }
    case "message": {
      const write = messageWriter(field.message);
      return (value) => {
        tag(no, LENGTH_DELIMITED);
        const start = begin();
        if (!write(value)) return false;
        end(start);
        return true;
      };
    }
    case "list":
      return listWriter(field);
    case "map":
      return mapWriter(field);
  }
}

// A scalar of one of the types this API's answers hold, with its tag; undefined for the others.
function scalarWriter(type: ScalarType, no: number, implicit: boolean): ValueWriter | undefined {
  switch (type) {
    case ScalarType.STRING:
      return (v) => {
        if (typeof v !== "string") return false;
        if (implicit && v === "") return true;
        tag(no, LENGTH_DELIMITED);
        string(v);
        return true;
      };
    case ScalarType.BOOL:
      return (v) => {
        if (typeof v !== "boolean") return false;
        if (implicit && !v) return true;
        tag(no, VARINT);
        varint(v ? 1 : 0);
        return true;
      };
    case ScalarType.INT32:
      return (v) => {
        if (typeof v !== "number" || v !== (v | 0)) return false;
        if (implicit && v === 0) return true;
        tag(no, VARINT);
        varint(v);
        return true;
      };
    case ScalarType.INT64:
      return (v) => {
        const n = int64Of(v);
        if (n === undefined) return false;
        if (implicit && n === 0n) return true;
        tag(no, VARINT);
        varint64(n);
        return true;
      };
    default:
      return undefined;
  }
}

// An int64 from its decimal string (protojson's form) or a safe integer, within int64's range.
function int64Of(v: JsonValue): bigint | undefined {
  const text = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof text !== "string" || !/^-?(0|[1-9]\d{0,18})$/.test(text)) return undefined;
  const n = BigInt(text);
  return n > 9223372036854775807n || n < -9223372036854775808n ? undefined : n;
}

function enumNumbers(e: DescEnum): Map<string, number> {
  return new Map(e.values.map((v) => [v.name, v.number]));
}

// A message's body (its length is the caller's): a Timestamp from its RFC 3339 string, another
// message from its object; a message written through wireMessage where it cannot be written here.
function messageWriter(schema: DescMessage): (value: JsonValue) => boolean {
  if (schema.typeName === "google.protobuf.Timestamp") {
    return (v) => {
      const body = typeof v === "string" ? timestampBody(v) : undefined;
      if (body === undefined) return false;
      ensure(body.length);
      buf.set(body, pos);
      pos += body.length;
      return true;
    };
  }
  // Other well-known types (Duration, wrappers, Struct) have JSON forms of their own.
  if (schema.typeName.startsWith("google.protobuf.")) return () => false;
  return (v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
    const start = pos;
    if (encoderOf(schema)(v)) return true;
    // Something only the protojson reader converts (or refuses): this message as it gives it.
    pos = start;
    const bytes = toBinary(schema, wireMessage(schema, v));
    ensure(bytes.length);
    buf.set(bytes, pos);
    pos += bytes.length;
    return true;
  };
}

// A page's times repeat (a row's create and update time, rows written together): each distinct one
// encoded once, a Timestamp's seconds (1) and nanos (2), each left out when zero.
const timestampBodies = new Map<string, Uint8Array | undefined>();

function timestampBody(text: string): Uint8Array | undefined {
  let body = timestampBodies.get(text);
  if (body !== undefined || timestampBodies.has(text)) return body;
  const t = timestampOf(text);
  if (t !== undefined) {
    const start = pos;
    if (t.seconds !== 0n) {
      tag(1, VARINT);
      varint64(t.seconds);
    }
    if (t.nanos !== 0) {
      tag(2, VARINT);
      varint(t.nanos);
    }
    body = new Uint8Array(buf.subarray(start, pos));
    pos = start;
  }
  if (timestampBodies.size >= 10_000) timestampBodies.clear();
  timestampBodies.set(text, body);
  return body;
}

function listWriter(field: DescField & { fieldKind: "list" }): ValueWriter {
  const no = field.number;
  if (field.listKind === "message") {
    const write = messageWriter(field.message);
    return (value) => {
      if (!Array.isArray(value)) return false;
      for (const v of value) {
        tag(no, LENGTH_DELIMITED);
        const start = begin();
        if (!write(v)) return false;
        end(start);
      }
      return true;
    };
  }
  if (field.listKind === "enum") {
    // Packed (proto3's default for repeated enums): one length-delimited run of numbers.
    const number = enumNumbers(field.enum);
    return (value) => {
      if (!Array.isArray(value)) return false;
      if (value.length === 0) return true;
      tag(no, LENGTH_DELIMITED);
      const start = begin();
      for (const v of value) {
        const n = typeof v === "string" ? number.get(v) : undefined;
        if (n === undefined) return false;
        varint(n);
      }
      end(start);
      return true;
    };
  }
  if (field.scalar !== ScalarType.STRING) return () => false;
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (const v of value) {
      if (typeof v !== "string") return false;
      tag(no, LENGTH_DELIMITED);
      string(v);
    }
    return true;
  };
}

// A map with string keys, an entry a message of key (1) and value (2), both always written.
function mapWriter(field: DescField & { fieldKind: "map" }): ValueWriter {
  if (field.mapKey !== ScalarType.STRING) return () => false;
  const no = field.number;
  let write: ValueWriter | undefined;
  if (field.mapKind === "message") {
    const body = messageWriter(field.message);
    write = (v) => {
      tag(2, LENGTH_DELIMITED);
      const start = begin();
      if (!body(v)) return false;
      end(start);
      return true;
    };
  } else if (field.mapKind === "enum") {
    const number = enumNumbers(field.enum);
    write = (v) => {
      const n = typeof v === "string" ? number.get(v) : undefined;
      if (n === undefined) return false;
      tag(2, VARINT);
      varint(n);
      return true;
    };
  } else if (field.scalar === ScalarType.STRING || field.scalar === ScalarType.INT32) {
    write = scalarWriter(field.scalar, 2, false);
  }
  if (write === undefined) return () => false;
  const value = write;
  return (map) => {
    if (map === null || typeof map !== "object" || Array.isArray(map)) return false;
    for (const key in map) {
      const v = map[key];
      if (v === null || v === undefined) return false;
      tag(no, LENGTH_DELIMITED);
      const start = begin();
      tag(1, LENGTH_DELIMITED);
      string(key);
      if (!value(v)) return false;
      end(start);
    }
    return true;
  };
}
