import { describe, expect, test } from "vitest";
import { applyPaths, KIND_RULES, maskPaths } from "../../../emulator/resources/index.js";

const group = { uid: "u", name: "a", description: "d", resourceLimits: {}, verified: false };
const identity = { uid: "u", name: "i", claimMatch: { issuer: "https://i", subject: "s" } };

describe("maskPaths", () => {
  test("without a mask: the mutable fields present in the body, nested ones down to leaves", () => {
    expect(maskPaths(KIND_RULES.groups, undefined, { description: "x", uid: "ignored" })).toEqual([
      "description",
    ]);
    expect(maskPaths(KIND_RULES.identities, undefined, { claimMatch: { subject: "t" } })).toEqual([
      "claimMatch.subject",
    ]);
    expect(maskPaths(KIND_RULES.identities, undefined, { claimMatch: "oops" })).toEqual(["claimMatch"]);
  });

  test("a body key the message lacks is code 3 naming it, with or without a mask (grpc-gateway's FieldMaskFromRequestBody)", () => {
    expect(() => maskPaths(KIND_RULES.groups, undefined, { description: "x", extra: 1 })).toThrow(
      /could not find field "extra"/,
    );
    expect(() => maskPaths(KIND_RULES.groups, "description", { description: "x", colour: "red" })).toThrow(
      /could not find field "colour"/,
    );
    expect(maskPaths(KIND_RULES.roleBindings, undefined, { roleUid: "r" })).toEqual(["roleUid"]);
  });

  test("with a mask: camelCase or snake_case paths; * expands to the top-level mutable fields", () => {
    expect(maskPaths(KIND_RULES.identities, "claim_match.subject, name", {})).toEqual([
      "claimMatch.subject",
      "name",
    ]);
    expect(maskPaths(KIND_RULES.groups, "*", {})).toEqual(["name", "description"]);
    expect(maskPaths(KIND_RULES.groups, "", { name: "n" })).toEqual(["name"]);
  });

  test("unknown and output-only paths are refused together, naming each", () => {
    expect(() => maskPaths(KIND_RULES.groups, "uid,colour", {})).toThrow(
      /uid is output only.*colour is not a field/,
    );
  });

  test("kinds that are never updated refuse every PATCH (group invites: replace them)", () => {
    expect(() => maskPaths(KIND_RULES.groupInvites, undefined, { email: "a@b.c" })).toThrow(/not updated/);
  });
});

describe("applyPaths", () => {
  test("sets present values, clears absent or null ones, refuses clearing required ones", () => {
    expect(applyPaths(KIND_RULES.groups, group, { name: "b" }, ["name", "description"])).toEqual({
      ...group,
      name: "b",
      description: undefined,
    });
    expect(applyPaths(KIND_RULES.groups, group, { description: null }, ["description"])).not.toHaveProperty(
      "description",
    );
    expect(() => applyPaths(KIND_RULES.groups, group, {}, ["name"])).toThrow(/cannot be cleared/);
  });

  test("applies a parent before its child and never mutates the input", () => {
    const before = structuredClone(identity);
    const next = applyPaths(
      KIND_RULES.identities,
      identity,
      { claimMatch: { issuer: "https://j", subject: "t" } },
      ["claimMatch.subject", "claimMatch"],
    );
    expect(next.claimMatch).toEqual({ issuer: "https://j", subject: "t" });
    expect(identity).toEqual(before);
  });
});
