import { describe, expect, it } from "vitest";
import {
  GROUP_NAME_PATTERN,
  GroupCreateSchema,
  GroupSchema,
  IdentityCreateSchema,
  listEnvelope,
  RoleBindingSchema,
} from "../../../sdk/index.js";

describe("wire schemas", () => {
  it("refuses a group name with capitals, naming the pattern", () => {
    const r = GroupCreateSchema.safeParse({ name: "Team A" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["name"]);
    expect(r.error?.issues[0]?.message).toContain("^[a-z0-9 ._-]{1,}$");
  });

  it("accepts the characters the API pattern allows", () => {
    for (const n of ["a", "team-a", "team_a.b c", "0"]) expect(GROUP_NAME_PATTERN.test(n)).toBe(true);
    for (const n of ["", "Team", "é", "a/b"]) expect(GROUP_NAME_PATTERN.test(n)).toBe(false);
  });

  it("fills resourceLimits and verified when the server omits them", () => {
    const g = GroupSchema.parse({
      uid: "x",
      name: "a",
      createTime: "2026-11-21T10:00:00.000Z",
      updateTime: "2026-11-21T10:00:00.000Z",
    });
    expect(g.resourceLimits).toEqual({});
    expect(g.verified).toBe(false);
  });

  it("rejects a timestamp that is not RFC 3339", () => {
    expect(
      GroupSchema.safeParse({
        uid: "x",
        name: "a",
        createTime: "yesterday",
        updateTime: "2026-11-21T10:00:00Z",
      }).success,
    ).toBe(false);
  });

  it("requires both claimMatch fields on an identity create", () => {
    const r = IdentityCreateSchema.safeParse({ name: "ci", claimMatch: { issuer: "https://i" } });
    expect(r.error?.issues.map((i) => i.path.join("."))).toEqual(["claimMatch.subject"]);
  });

  it("reads a hydrated role binding", () => {
    const b = RoleBindingSchema.parse({
      uid: "g/b",
      identity: { uid: "g/i", name: "ci", subject: "s", issuer: "https://i" },
      group: { uid: "g", name: "team" },
      role: { uid: "ab", name: "viewer", description: "Built-in role" },
      createTime: "2026-11-21T10:00:00.000Z",
    });
    expect(b.role.name).toBe("viewer");
  });

  it("normalises a list envelope under its plural key", () => {
    const e = listEnvelope("repos", GroupSchema.pick({ uid: true })).parse({
      repos: [{ uid: "a" }],
      nextPageToken: "t",
      totalCount: "3",
      skipped: 0,
    });
    expect(e).toEqual({ items: [{ uid: "a" }], nextPageToken: "t", totalCount: 3, skipped: 0 });
  });
});
