import { describe, expect, it } from "vitest";
import { computeUpdate, deepEqual } from "../../../sdk/index.js";

const FIELDS = ["name", "description", "claimMatch"] as const;

describe("computeUpdate", () => {
  it("returns nothing when no field changes, so no PATCH is sent", () => {
    expect(
      computeUpdate({ name: "a", description: "d" }, { name: "a", description: "d" }, FIELDS),
    ).toBeUndefined();
  });

  it("ignores fields that are not mutable (outputs such as uid or updateTime)", () => {
    expect(
      computeUpdate(
        { name: "a", uid: "1", updateTime: "t1" },
        { name: "a", uid: "2", updateTime: "t2" },
        FIELDS,
      ),
    ).toBeUndefined();
  });

  it("lists exactly the one field that changed and carries its new value", () => {
    expect(
      computeUpdate({ name: "a", description: "old" }, { name: "a", description: "new" }, FIELDS),
    ).toEqual({
      body: { description: "new" },
      updateMask: ["description"],
    });
  });

  it("clears a field removed from the desired state by listing it without a value", () => {
    expect(computeUpdate({ name: "a", description: "old" }, { name: "a" }, FIELDS)).toEqual({
      body: {},
      updateMask: ["description"],
    });
  });

  it("does not clear a field that was already empty", () => {
    expect(computeUpdate({ name: "a", description: "" }, { name: "a" }, FIELDS)).toBeUndefined();
  });

  it("sets a field that was absent before", () => {
    expect(computeUpdate({ name: "a" }, { name: "a", description: "new" }, FIELDS)).toEqual({
      body: { description: "new" },
      updateMask: ["description"],
    });
  });

  it("lists only the changed leaf of a nested object and sends the whole new object", () => {
    const before = { name: "a", claimMatch: { issuer: "https://i", subject: "s1" } };
    const after = { name: "a", claimMatch: { issuer: "https://i", subject: "s2" } };
    expect(computeUpdate(before, after, FIELDS)).toEqual({
      body: { claimMatch: { issuer: "https://i", subject: "s2" } },
      updateMask: ["claimMatch.subject"],
    });
  });

  it("lists both leaves when a nested object changes entirely, in a stable order", () => {
    const r = computeUpdate(
      { claimMatch: { subject: "s", issuer: "https://a" } },
      { claimMatch: { issuer: "https://b", subject: "t" } },
      FIELDS,
    );
    expect(r?.updateMask).toEqual(["claimMatch.issuer", "claimMatch.subject"]);
  });

  it("changes several fields at once in the order of the field list", () => {
    const r = computeUpdate({ name: "a", description: "x" }, { description: "y", name: "b" }, FIELDS);
    expect(r).toEqual({ body: { name: "b", description: "y" }, updateMask: ["name", "description"] });
  });

  it("treats a nested object replacing a scalar as a whole-field change", () => {
    expect(
      computeUpdate({ claimMatch: "legacy" }, { claimMatch: { issuer: "i", subject: "s" } }, FIELDS)
        ?.updateMask,
    ).toEqual(["claimMatch"]);
  });
});

describe("deepEqual", () => {
  it("compares arrays by position and objects by keys, ignoring undefined members", () => {
    expect(deepEqual([1, { a: 1 }], [1, { a: 1, b: undefined }])).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: 1 }, { a: "1" })).toBe(false);
  });
});
