import { describe, expect, it } from "vitest";
import {
  CAPABILITIES,
  GROUP_NAME_PATTERN,
  GroupCreateSchema,
  GroupSchema,
  IdentityCreateSchema,
  listEnvelope,
  matchesPattern,
  Pattern,
  RoleBindingSchema,
  RoleCreateSchema,
  RoleSchema,
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

  it("identity variants: exactly one, patterns compile and match whole values only", () => {
    const claimMatch = { issuer: "https://i", subjectPattern: "repo:acme/.*" };
    expect(IdentityCreateSchema.safeParse({ name: "ci", claimMatch }).success).toBe(true);
    const two = IdentityCreateSchema.safeParse({
      name: "ci",
      claimMatch,
      servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED",
    });
    expect(two.error?.issues[0]?.path).toEqual(["servicePrincipal"]);
    expect(IdentityCreateSchema.safeParse({ name: "ci" }).error?.issues[0]?.message).toMatch(
      /exactly one of/,
    );
    expect(Pattern.safeParse("repo:(").success).toBe(false);
    expect(matchesPattern("repo:acme/.*", "repo:acme/app")).toBe(true);
    expect(matchesPattern("acme", "xacmex")).toBe(false);
  });

  it("role capabilities travel as enum names and read as display names; unknown ones are kept", () => {
    expect(RoleCreateSchema.safeParse({ name: "r", capabilities: ["CAP_IAM_GROUPS_LIST"] }).success).toBe(
      true,
    );
    expect(RoleCreateSchema.safeParse({ name: "r", capabilities: "groups.list" }).success).toBe(false);
    const role = RoleSchema.parse({
      uid: "ab",
      name: "r",
      description: "",
      capabilities: ["CAP_IAM_GROUPS_LIST", 901, "CAP_FUTURE_THING"],
      createTime: null,
      updateTime: null,
    });
    expect(role.capabilities).toEqual(["groups.list", "identity.create", "CAP_FUTURE_THING"]);
    expect(role.description).toBeUndefined();
    expect(role.createTime).toBeUndefined();
    expect(CAPABILITIES).toContain("account_associations.delete");
    // Invites are never updated: the published enum has no such capability.
    expect(CAPABILITIES).not.toContain("group_invites.update");
  });
});
