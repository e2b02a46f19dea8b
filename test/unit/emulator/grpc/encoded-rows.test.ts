// The kept encodings of rows (issue 47): a row whose answer its stored text alone decides is encoded
// once and answered from then on by its text; any other row is encoded on every answer; the kept
// encodings stay within their bound.
import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { EncodedRows } from "../../../../emulator/grpc/encoded-rows.js";
import { GroupSchema as GroupSchemaV2 } from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2/groups_pb.js";
import { GroupSchema } from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";

// A kind's answers whose output is the stored text parsed, counting its calls.
function answers(storedAlone: boolean) {
  const calls: string[] = [];
  return {
    calls,
    storedAlone,
    output: (stored: string) => {
      calls.push(stored);
      return JSON.parse(stored) as Record<string, unknown>;
    },
  };
}
const row = (name: string, description = "") => JSON.stringify({ uid: `org/${name}`, name, description });

describe("EncodedRows", () => {
  it("encodes a row whose text alone decides its answer once, and a changed text anew", () => {
    const groups = new EncodedRows().of("groups", GroupSchema);
    const a = answers(true);
    const first = groups(a, row("eng", "before"));
    expect(groups(a, row("eng", "before"))).toBe(first);
    expect(a.calls).toHaveLength(1);
    expect(fromBinary(GroupSchema, first)).toMatchObject({ uid: "org/eng", description: "before" });
    expect(fromBinary(GroupSchema, groups(a, row("eng", "after")))).toMatchObject({ description: "after" });
    expect(a.calls).toHaveLength(2);
  });

  it("encodes every answer of a kind whose answer is not its text alone (an output hook)", () => {
    const bindings = new EncodedRows().of("roleBindings", GroupSchema);
    const a = answers(false);
    bindings(a, row("eng"));
    bindings(a, row("eng"));
    expect(a.calls).toHaveLength(2);
  });

  it("keeps each kind and message type apart", () => {
    const rows = new EncodedRows();
    const a = answers(true);
    rows.of("groups", GroupSchema)(a, row("eng"));
    rows.of("groups", GroupSchemaV2)(a, row("eng"));
    rows.of("repos", GroupSchema)(a, row("eng"));
    expect(a.calls).toHaveLength(3);
    expect(rows.count()).toBe(3);
  });

  it("keeps at most its bound, emptied when full", () => {
    const rows = new EncodedRows(3);
    const groups = rows.of("groups", GroupSchema);
    const a = answers(true);
    for (const name of ["a", "b", "c", "d"]) groups(a, row(name));
    expect(rows.count()).toBe(1);
    // Emptied: "a" is encoded again.
    groups(a, row("a"));
    expect(a.calls).toHaveLength(5);
    expect(rows.count()).toBe(2);
  });
});
