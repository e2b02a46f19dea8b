import type { DescEnum, DescField, DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { fromBinary, fromJson, ScalarType, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { wireBytes } from "../../../../emulator/grpc/wire-bytes.js";
import { WIRE_REGISTRY } from "../../../../emulator/grpc/wire-types.js";
import { answerMessages, sample } from "./wire-samples.js";

const messages = answerMessages();
const byName = (typeName: string) => messages.find((m) => m.typeName === typeName) as DescMessage;

// What the bytes must be: protobuf-es's own encoding of the message its protojson reader makes.
const expected = (m: DescMessage, json: JsonObject) =>
  Buffer.from(toBinary(m, fromJson(m, json, { registry: WIRE_REGISTRY })));

// The sample with every scalar, enum and timestamp replaced as `pick` says (same fields, same keys).
function rewrite(
  m: DescMessage,
  json: JsonObject,
  pick: (f: DescField, v: JsonValue) => JsonValue,
): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(json)) {
    const f = m.fields.find((x) => x.jsonName === key || x.name === key) as DescField;
    const one = (v: JsonValue): JsonValue => {
      const nested = f.message;
      if (v !== null && typeof v === "object" && !Array.isArray(v) && nested !== undefined)
        return f.fieldKind === "map" && f.mapKind !== "message" ? v : rewrite(nested, v, pick);
      return pick(f, v);
    };
    if (Array.isArray(value)) out[key] = value.map(one);
    else if (f.fieldKind === "map" && value !== null && typeof value === "object")
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pick(f, v as JsonValue)]));
    else out[key] = value === null ? null : one(value);
  }
  return out;
}

// The scalar type or enum of a field's values (a singular field's, a list's elements', a map's values).
const scalarOf = (f: DescField) => (f as { scalar?: ScalarType }).scalar;
const enumOf = (f: DescField) => (f as { enum?: DescEnum }).enum;

// Zero values: skipped when the field has implicit presence, written when it has not (oneof members,
// `optional`), always in lists and maps.
const zeros = (f: DescField, v: JsonValue): JsonValue => {
  const e = enumOf(f);
  if (e !== undefined) return e.values[0]?.name ?? v;
  switch (scalarOf(f)) {
    case ScalarType.STRING:
      return "";
    case ScalarType.BOOL:
      return false;
    case ScalarType.INT32:
      return 0;
    case ScalarType.INT64:
      return "0";
    default:
      return f.message?.typeName === "google.protobuf.Timestamp" ? "1970-01-01T00:00:00Z" : v;
  }
};

// Values whose encoding is not one byte a character or a byte a number: multi-byte UTF-8, lengths that take two and three bytes, negative and 64-bit numbers, times before 1970.
const awkward = (f: DescField, v: JsonValue): JsonValue => {
  const e = enumOf(f);
  if (e !== undefined) return e.values.at(-1)?.name ?? v;
  switch (scalarOf(f)) {
    case ScalarType.STRING:
      return f.number % 3 === 0 ? "é€😀x" : f.number % 3 === 1 ? "x".repeat(200) : "y".repeat(20_000);
    case ScalarType.INT32:
      return -5;
    case ScalarType.INT64:
      return f.number % 2 === 0 ? "-9223372036854775808" : "9223372036854775807";
    default:
      return f.message?.typeName === "google.protobuf.Timestamp" ? "1901-02-03T04:05:06.000000789Z" : v;
  }
};

describe("wireBytes: the gRPC answer written straight from the service core's wire object (issue 47)", () => {
  it("every message the transport answers with is the bytes protobuf-es writes for fromJson's message", () => {
    for (const m of messages) {
      for (const variant of [0, 1, 2, 3]) {
        const json = sample(m, variant);
        for (const [form, value] of [
          ["sample", json],
          ["zero values", rewrite(m, json, zeros)],
          ["awkward values", rewrite(m, json, awkward)],
        ] as const) {
          // Buffer.equals: the pretty diff of long buffers alone would take seconds.
          const equal = wireBytes(m, structuredClone(value)).equals(expected(m, value));
          expect(equal, `${m.typeName} #${variant} ${form}`).toBe(true);
        }
      }
    }
  });

  it("writes a LIST page larger than its scratch, each row with its own times", () => {
    const list = byName("chainguard.platform.iam.v2.ListGroupsResponse");
    const page: JsonObject = {
      groups: Array.from({ length: 2_000 }, (_, i) => ({
        uid: `${"a".repeat(40)}/${i.toString(16).padStart(16, "0")}`,
        name: `g${i}`,
        description: i % 2 === 0 ? "" : `group ${i}`,
        resourceLimits: {},
        verified: false,
        createTime: new Date(Date.UTC(2026, 10, 28, 0, 0, i)).toISOString(),
        updateTime: null,
      })),
      nextPageToken: "t".repeat(300),
      totalCount: "10000",
      skipped: 0,
    };
    const bytes = wireBytes(list, page);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    expect(bytes).toEqual(expected(list, page));
    expect(fromBinary(list, bytes)).toEqual(fromJson(list, page));
  });

  it("leaves the object it reads unchanged (the service core may hold it)", () => {
    const m = byName("chainguard.platform.iam.v2.Identity");
    const json = sample(m, 1);
    const before = structuredClone(json);
    wireBytes(m, json);
    expect(json).toEqual(before);
  });

  it("refuses what fromJson refuses, with its message: an unknown field, an unknown enum name", () => {
    const group = byName("chainguard.platform.iam.v2.Group");
    expect(() => wireBytes(group, { uid: "x", colour: "red" })).toThrow(/colour/);
    const list = byName("chainguard.platform.iam.v2.ListRolesResponse");
    expect(() => wireBytes(list, { roles: [{ capabilities: ["CAP_NOT_ONE"] }] })).toThrow(/CAP_NOT_ONE/);
  });
});
