import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  FREE_FORM_LIMITS,
  freeForm,
  freeFormRefinement,
  freeFormViolations,
} from "../../../emulator/resources/index.js";

const nested = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};

describe("freeFormViolations", () => {
  test("accepts values within every limit", () => {
    expect(freeFormViolations("settings", { a: [1, "two", { b: null }], c: nested(7) })).toEqual([]);
  });

  test("names the path where containers nest past the limit, without recursing (a million levels)", () => {
    expect(freeFormViolations("settings", { a: nested(9) })).toEqual([
      { field: "settings.a.0.0.0.0.0.0.0", description: "is nested more than 8 levels deep inside settings" },
    ]);
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(freeFormViolations("x", deep)[0]?.description).toMatch(/8 levels/);
  });

  test("limits entries per container and the size of the field", () => {
    expect(freeFormViolations("m", Array(101).fill(0))[0]).toEqual({
      field: "m",
      description: "has 101 entries, more than the limit of 100",
    });
    expect(freeFormViolations("s", "x".repeat(FREE_FORM_LIMITS.maxBytes))[0]?.description).toMatch(
      /bytes of JSON/,
    );
  });

  test("refuses keys named like Object.prototype members and lone surrogates", () => {
    expect(freeFormViolations("m", JSON.parse('{"ok":{"constructor":1}}'))).toEqual([
      { field: "m.ok.constructor", description: expect.stringMatching(/^key is a reserved name/) },
    ]);
    expect(freeFormViolations("m", { v: "\ud800" })[0]?.field).toBe("m.v");
  });
});

describe("freeForm", () => {
  test("is a zod schema whose issues carry the JSON path, usable to refine typed maps", () => {
    const Claims = z.object({ claims: freeForm({ ...FREE_FORM_LIMITS, maxDepth: 1 }) });
    const r = Claims.safeParse({ claims: { a: { b: 1 } } });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path)).toEqual([["claims", "a"]]);
    const ClientIds = z.record(z.string(), z.string()).superRefine(freeFormRefinement());
    expect(ClientIds.safeParse({ toString: "x" }).success).toBe(false);
    expect(ClientIds.safeParse({ web: "x" }).success).toBe(true);
  });
});
