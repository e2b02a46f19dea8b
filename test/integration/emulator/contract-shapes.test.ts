// The wire shapes of the spec (section 2) as the emulator answers them, checked against the sdk's
// zod schemas and the spec's literal rules: uid paths, timestamps, defaults, hydrated bindings.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ERROR_DOMAIN,
  GROUP_NAME_PATTERN_SOURCE,
  GroupSchema,
  IdentitySchema,
  RoleBindingSchema,
  RoleSchema,
  TYPE_URL_PREFIX,
  V1List,
} from "../../../sdk/index.js";
import type { ErrorBody, TestEmulator } from "./support.js";
import { detail, startTestEmulator, TIMESTAMP } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const SEGMENT = /^[0-9a-f]{16}$/;

describe("groups", () => {
  test("a new group has a child uid of its parent, verified false, empty resourceLimits and millisecond UTC timestamps", async () => {
    expect(emu.orgUid).toMatch(/^[0-9a-f]{40}$/);
    const g = await emu.group("platform", undefined, "Platform team");
    expect(GroupSchema.parse(g)).toBeTruthy();
    expect(g.uid.startsWith(`${emu.orgUid}/`)).toBe(true);
    expect(g.uid.slice(emu.orgUid.length + 1)).toMatch(SEGMENT);
    expect(g).toMatchObject({
      name: "platform",
      description: "Platform team",
      verified: false,
      resourceLimits: {},
    });
    expect(g.createTime).toMatch(TIMESTAMP);
    expect(g.updateTime).toBe(g.createTime);
    const child = await emu.group("child", g.uid);
    expect(child.uid).toMatch(new RegExp(`^${g.uid}/[0-9a-f]{16}$`));
    // Unset strings are "", as grpc-gateway writes every field (protojson EmitUnpopulated).
    expect(child.description).toBe("");
  });

  test("get by uid returns the same group as create", async () => {
    const g = await emu.group("get-me");
    expect(await emu.ok("GET", `/iam/v2beta1/groups/${g.uid}`)).toEqual(g);
  });

  test("the root organization is a group readable by uid", async () => {
    const root = await emu.ok("GET", `/iam/v2beta1/groups/${emu.orgUid}`);
    expect(GroupSchema.parse(root).uid).toBe(emu.orgUid);
  });

  test("refuses a group name with capitals with code 3, INVALID_ARGUMENT and a BadRequest naming the field and the pattern", async () => {
    const a = await emu.call<ErrorBody>("POST", `/iam/v2beta1/groups/${emu.orgUid}`, {
      body: { name: "Team A" },
    });
    expect(a.status).toBe(400);
    expect(a.body.code).toBe(3);
    expect(a.body.message.startsWith("Invalid argument:")).toBe(true);
    expect(detail(a.body, "ErrorInfo")).toEqual({
      "@type": `${TYPE_URL_PREFIX}ErrorInfo`,
      reason: "INVALID_ARGUMENT",
      domain: ERROR_DOMAIN,
    });
    const bad = detail<{ fieldViolations: { field: string; description: string }[] }>(a.body, "BadRequest");
    expect(bad.fieldViolations).toHaveLength(1);
    expect(bad.fieldViolations[0]?.field).toBe("name");
    expect(bad.fieldViolations[0]?.description).toContain(GROUP_NAME_PATTERN_SOURCE);
    expect(detail<{ requestId: string }>(a.body, "RequestInfo").requestId).toBe(
      a.headers.get("x-request-id"),
    );
  });

  test("refuses a missing or empty group name the same way", async () => {
    for (const body of [{}, { name: "" }, { description: "no name" }]) {
      const a = await emu.call<ErrorBody>("POST", `/iam/v2beta1/groups/${emu.orgUid}`, { body });
      expect(a.body.code).toBe(3);
      const bad = detail<{ fieldViolations: { field: string; description: string }[] }>(a.body, "BadRequest");
      expect(bad.fieldViolations[0]).toMatchObject({ field: "name" });
      expect(bad.fieldViolations[0]?.description).toContain(GROUP_NAME_PATTERN_SOURCE);
    }
  });

  test("accepts every character of the name pattern", async () => {
    const g = await emu.group("a.b_c-d 9");
    expect(g.name).toBe("a.b_c-d 9");
  });

  test("refuses a duplicate name among siblings with code 6 but allows it under another parent", async () => {
    const parent = await emu.group("dup-parent");
    await emu.group("same", parent.uid);
    const a = await emu.call<ErrorBody>("POST", `/iam/v2beta1/groups/${parent.uid}`, {
      body: { name: "same" },
    });
    expect(a.status).toBe(409);
    expect(a.body.code).toBe(6);
    expect(detail(a.body, "ErrorInfo")).toMatchObject({ reason: "ALREADY_EXISTS" });
    const other = await emu.group("dup-other");
    expect((await emu.group("same", other.uid)).name).toBe("same");
  });

  test("answers code 5 for an unknown uid and for a create under an unknown parent", async () => {
    const ghost = `${emu.orgUid}/0123456789abcdef`;
    const get = await emu.call<ErrorBody>("GET", `/iam/v2beta1/groups/${ghost}`);
    expect(get.status).toBe(404);
    expect(get.body.code).toBe(5);
    expect(detail(get.body, "ErrorInfo")).toMatchObject({ reason: "NOT_FOUND", domain: ERROR_DOMAIN });
    const create = await emu.call<ErrorBody>("POST", `/iam/v2beta1/groups/${ghost}`, { body: { name: "x" } });
    expect(create.body.code).toBe(5);
    for (const method of ["PATCH", "DELETE"]) {
      const a = await emu.call<ErrorBody>(method, `/iam/v2beta1/groups/${ghost}`, {
        body: { description: "x" },
      });
      expect(a.body.code).toBe(5);
    }
    expect((await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups/not-a-uid")).body.code).toBe(5);
  });
});

describe("identities", () => {
  test("an identity is a child of its group, carries claimMatch and has lastSeenTime in the create response", async () => {
    const g = await emu.group("ids");
    const id = await emu.identity(g.uid, "ci", "repo:acme/app");
    expect(IdentitySchema.parse(id)).toBeTruthy();
    expect(id.uid).toMatch(new RegExp(`^${g.uid}/[0-9a-f]{16}$`));
    // Empty maps are written `{}` (protojson EmitUnpopulated; identities.proto:258,261).
    expect(id.claimMatch).toEqual({
      issuer: emu.issuerUrl,
      subject: "repo:acme/app",
      claims: {},
      claimPatterns: {},
    });
    expect(id.lastSeenTime).toMatch(TIMESTAMP);
    expect(id.createTime).toMatch(TIMESTAMP);
    expect(id.updateTime).toMatch(TIMESTAMP);
    expect(await emu.ok("GET", `/iam/v2beta1/identities/${id.uid}`)).toEqual(id);
  });

  test("refuses an identity without claimMatch subject, naming the nested field", async () => {
    const a = await emu.call<ErrorBody>("POST", `/iam/v2beta1/identities/${emu.orgUid}`, {
      body: { name: "x", claimMatch: { issuer: "https://i" } },
    });
    expect(a.body.code).toBe(3);
    const bad = detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest");
    expect(bad.fieldViolations.map((v) => v.field)).toEqual(["claimMatch.subject"]);
  });

  test("refuses a duplicate identity name in one group with code 6", async () => {
    const g = await emu.group("id-dups");
    await emu.identity(g.uid, "same");
    const a = await emu.call<ErrorBody>("POST", `/iam/v2beta1/identities/${g.uid}`, {
      body: { name: "same", claimMatch: { issuer: "https://i", subject: "s" } },
    });
    expect(a.body.code).toBe(6);
  });
});

describe("roles", () => {
  test("the built-in roles owner, editor and viewer exist with flat hex uids and built-in descriptions", async () => {
    const page = await emu.ok<{ roles: { uid: string; name: string; description: string }[] }>(
      "GET",
      "/iam/v2beta1/roles",
    );
    const builtIns = page.roles.filter((r) => ["owner", "editor", "viewer"].includes(r.name));
    expect(builtIns.map((r) => r.name).sort()).toEqual(["editor", "owner", "viewer"]);
    for (const r of builtIns) {
      expect(RoleSchema.parse(r)).toBeTruthy();
      expect(r.uid).toMatch(/^[0-9a-f]+$/);
      expect(r.description).toMatch(/^Built-in role/);
    }
  });

  test("custom roles are created under a group with POST /iam/v2beta1/roles/<group_uid>, keep a flat uid and are readable by uid", async () => {
    const role = await emu.ok<{ uid: string; name: string; parentUid: string }>(
      "POST",
      `/iam/v2beta1/roles/${emu.orgUid}`,
      { body: { name: "auditor", description: "reads audit logs", capabilities: ["CAP_IAM_GROUPS_LIST"] } },
    );
    expect(role.uid).toMatch(/^[0-9a-f]{40}$/);
    expect(role).not.toHaveProperty("parentUid");
    expect(await emu.ok("GET", `/iam/v2beta1/roles/${role.uid}`)).toEqual(role);
    const taken = await emu.call<ErrorBody>("POST", `/iam/v2beta1/roles/${emu.orgUid}`, {
      body: { name: "viewer" },
    });
    expect(taken.body.code).toBe(6);
    const noParent = await emu.call<ErrorBody>("POST", "/iam/v2beta1/roles", { body: { name: "x" } });
    expect(noParent.body.code).toBe(12); // the old flat create: method not allowed on the collection
  });

  test("built-in roles cannot be changed or deleted, even by the admin (code 7)", async () => {
    const viewer = await emu.roleUid("viewer");
    const patch = await emu.call<ErrorBody>("PATCH", `/iam/v2beta1/roles/${viewer}`, {
      body: { description: "x" },
    });
    expect(patch.body.code).toBe(7);
    const del = await emu.call<ErrorBody>("DELETE", `/iam/v2beta1/roles/${viewer}`);
    expect(del.body.code).toBe(7);
  });
});

describe("role bindings", () => {
  test("a binding is created from identityUid and roleUid and answers hydrated identity, group and role, the two uids and only createTime", async () => {
    const g = await emu.group("bound", undefined, "bound group");
    const id = await emu.identity(g.uid, "deployer", "sub-deployer");
    const roleUid = await emu.roleUid("editor");
    const b = await emu.ok<Record<string, unknown>>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid },
    });
    expect(RoleBindingSchema.parse(b)).toBeTruthy();
    expect(b.uid).toMatch(new RegExp(`^${g.uid}/[0-9a-f]{16}$`));
    expect(b.identity).toEqual({
      uid: id.uid,
      name: "deployer",
      description: "",
      subject: "sub-deployer",
      issuer: emu.issuerUrl,
    });
    expect(b.group).toEqual({ uid: g.uid, name: "bound", description: "bound group" });
    expect(b.role).toMatchObject({ uid: roleUid, name: "editor" });
    // identityUid and roleUid as in the published message (iam/role_bindings.proto:198, :202).
    expect(b).toMatchObject({ identityUid: id.uid, roleUid });
    expect(Object.keys(b).sort()).toEqual([
      "createTime",
      "group",
      "identity",
      "identityUid",
      "role",
      "roleUid",
      "uid",
    ]);
    expect(b.createTime).toMatch(TIMESTAMP);
    expect(await emu.ok("GET", `/iam/v2beta1/roleBindings/${String(b.uid)}`)).toEqual(b);
  });

  test("a binding may bind an identity of an ancestor group but not one of a sibling group", async () => {
    const parent = await emu.group("rb-parent");
    const child = await emu.group("rb-child", parent.uid);
    const sibling = await emu.group("rb-sibling", parent.uid);
    const id = await emu.identity(parent.uid, "up");
    const roleUid = await emu.roleUid("viewer");
    await emu.ok("POST", `/iam/v2beta1/roleBindings/${child.uid}`, {
      body: { identityUid: id.uid, roleUid },
    });
    const other = await emu.identity(sibling.uid, "beside");
    const a = await emu.call<ErrorBody>("POST", `/iam/v2beta1/roleBindings/${child.uid}`, {
      body: { identityUid: other.uid, roleUid },
    });
    expect(a.body.code).toBe(3);
    expect(
      detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations[0]?.field,
    ).toBe("identityUid");
  });

  test("a second binding of the same identity and role in one group is code 6; an unknown role is code 3", async () => {
    const g = await emu.group("rb-dup");
    const id = await emu.identity(g.uid, "x");
    const roleUid = await emu.roleUid("viewer");
    await emu.ok("POST", `/iam/v2beta1/roleBindings/${g.uid}`, { body: { identityUid: id.uid, roleUid } });
    const dup = await emu.call<ErrorBody>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid },
    });
    expect(dup.body.code).toBe(6);
    const unknown = await emu.call<ErrorBody>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid: "ffff" },
    });
    expect(unknown.body.code).toBe(3);
  });

  test("hydrated references follow renames", async () => {
    const g = await emu.group("rb-rename");
    const id = await emu.identity(g.uid, "before");
    const b = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
    });
    await emu.ok("PATCH", `/iam/v2beta1/identities/${id.uid}`, { body: { name: "after" } });
    const again = await emu.ok<{ identity: { name: string } }>("GET", `/iam/v2beta1/roleBindings/${b.uid}`);
    expect(again.identity.name).toBe("after");
  });
});

describe("registry and vulnerabilities", () => {
  test("repos, tags and advisories are answered in the published v2beta1 shapes, unset fields at their gateway defaults", async () => {
    const g = await emu.group("registry");
    const repo = await emu.ok<{ uid: string; createTime: string }>("POST", "/_emulator/repos", {
      body: { parentUid: g.uid, name: "app" },
    });
    expect(repo.uid).toMatch(new RegExp(`^${g.uid}/[0-9a-f]{16}$`));
    // reg/repos.proto:182-245 under protojson EmitUnpopulated: "" / [] / the zero enum / null.
    expect(repo).toEqual({
      uid: repo.uid,
      name: "app",
      description: "",
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
      bundles: [],
      aliases: [],
      activeTags: [],
      sync_config: null,
      customOverlay: null,
      createTime: expect.stringMatching(TIMESTAMP),
      updateTime: repo.createTime,
    });
    const tag = await emu.ok<{ uid: string }>("POST", "/_emulator/tags", {
      body: { repoUid: repo.uid, name: "v1", digest: "sha256:abc" },
    });
    expect(tag.uid).toMatch(new RegExp(`^${repo.uid}/[0-9a-f]{16}$`));
    // reg/tags.proto:111-137: no createTime.
    expect(await emu.ok("GET", `/registry/v2beta1/tags/${tag.uid}`)).toEqual({
      uid: tag.uid,
      name: "v1",
      digest: "sha256:abc",
      updateTime: expect.stringMatching(TIMESTAMP),
      deprecated: false,
      bundles: [],
    });
    // Fields the published Advisory lacks are dropped, like unknown keys at the gateway.
    const adv = await emu.ok<{ uid: string; advisoryId: string }>("POST", "/_emulator/advisories", {
      body: { parentUid: g.uid, name: "CVE-2026-0001", severity: "HIGH", aliases: ["CVE-2026-0001"] },
    });
    // vuln/advisories.proto:63-115: `optional` deleteTime and legacyAdvisoryId are left out unset.
    expect(await emu.ok("GET", `/vulnerabilities/v2beta1/advisories/${adv.uid}`)).toEqual({
      uid: adv.uid,
      advisoryId: expect.stringMatching(/^CGA(-[0-9a-z]{4}){3}$/),
      createTime: expect.stringMatching(TIMESTAMP),
      updateTime: expect.stringMatching(TIMESTAMP),
      author: "",
      artifactName: "",
      artifactType: "",
      artifactArchitecture: "",
      componentName: "",
      componentLocation: "",
      componentType: "",
      aliases: ["CVE-2026-0001"],
      events: [],
      severities: [],
    });
    expect(await emu.ok("GET", `/registry/v2beta1/repos/${repo.uid}`)).toEqual(repo);
    const repos = await emu.ok<{ repos: unknown[]; totalCount: string }>("GET", "/registry/v2beta1/repos", {
      query: { "uidp.children_of": g.uid },
    });
    expect(repos).toMatchObject({ repos: [repo], totalCount: "1" });
    const tags = await emu.ok<{ tags: { uid: string }[] }>("GET", "/registry/v2beta1/tags", {
      query: { "uidp.descendants_of": g.uid },
    });
    expect(tags.tags.map((t) => t.uid)).toEqual([tag.uid]);
  });

  test("seeds take every published field of a repo, a tag and an advisory, and refuse badly typed ones", async () => {
    const g = await emu.group("registry-full");
    const repo = await emu.ok<Record<string, unknown> & { uid: string }>("POST", "/_emulator/repos", {
      body: {
        parentUid: g.uid,
        name: "nginx",
        description: "web server",
        catalogTier: "CATALOG_TIER_APPLICATION",
        bundles: ["web"],
        aliases: ["nginx-fips"],
        activeTags: ["latest", "1.27"],
      },
    });
    expect(repo).toMatchObject({
      description: "web server",
      catalogTier: "CATALOG_TIER_APPLICATION",
      bundles: ["web"],
      aliases: ["nginx-fips"],
      activeTags: ["latest", "1.27"],
    });
    const tag = await emu.ok("POST", "/_emulator/tags", {
      body: { repoUid: repo.uid, name: "old", digest: "sha256:def", deprecated: true, bundles: ["web"] },
    });
    expect(tag).toMatchObject({ deprecated: true, bundles: ["web"] });
    const severities = [
      { type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H" },
      { type: "TYPE_CVSS_V4", score: "" },
    ];
    const adv = await emu.ok("POST", "/_emulator/advisories", {
      body: {
        parentUid: g.uid,
        advisoryId: "CGA-xvgw-cvr7-9g2q",
        author: "scanner@example.com",
        artifactName: "log4j",
        artifactType: "apk",
        artifactArchitecture: "x86_64",
        componentName: "log4j-core",
        componentLocation: "/usr/share/java",
        componentType: "java-archive",
        aliases: ["CVE-2021-44228", "GHSA-jfh8-c2jp-5v3q"],
        events: [{ detection: { manual: {} } }],
        legacyAdvisoryId: "CGA-abcd-efgh-ijkl",
        severities,
        deleteTime: "2026-11-01T00:00:00Z",
      },
    });
    expect(adv).toMatchObject({
      advisoryId: "CGA-xvgw-cvr7-9g2q",
      deleteTime: "2026-11-01T00:00:00Z",
      legacyAdvisoryId: "CGA-abcd-efgh-ijkl",
      aliases: ["CVE-2021-44228", "GHSA-jfh8-c2jp-5v3q"],
      events: [{ detection: { manual: {} }, reviewState: "REVIEW_STATE_UNSPECIFIED" }],
      severities,
    });
    // The event's uid is the service's: a child of the advisory's.
    expect((adv as { events: { uid: string }[] }).events[0]?.uid).toMatch(
      new RegExp(`^${(adv as { uid: string }).uid}/[0-9a-f]{16}$`),
    );
    const again = await emu.call<ErrorBody>("POST", "/_emulator/advisories", {
      body: { parentUid: g.uid, advisoryId: "CGA-xvgw-cvr7-9g2q" },
    });
    expect(again.body.code).toBe(6);
    const bad = await emu.call<ErrorBody>("POST", "/_emulator/advisories", {
      body: { parentUid: g.uid, advisoryId: "CVE-1", severities: [{ type: "CRITICAL" }], aliases: "CVE-1" },
    });
    expect(bad.body.code).toBe(3);
    const { fieldViolations } = detail<{ fieldViolations: { field: string }[] }>(bad.body, "BadRequest");
    const fields = fieldViolations.map((v) => v.field);
    expect(fields.sort()).toEqual(["advisoryId", "aliases", "severities.0.type"]);
    const tier = await emu.call<ErrorBody>("POST", "/_emulator/repos", {
      body: { parentUid: g.uid, name: "x", catalogTier: "base" },
    });
    expect(tier.body.code).toBe(3);
  });

  test("the read-only kind (advisories) offers no create, update or delete (code 12, HTTP 405 with Allow)", async () => {
    const a = await emu.call<ErrorBody>("POST", `/vulnerabilities/v2beta1/advisories/${emu.orgUid}`, {
      body: { advisoryId: "x" },
    });
    expect(a.status).toBe(405);
    expect(a.body.code).toBe(12);
    expect(a.headers.get("allow")).toBe("GET");
  });

  test("fixtures seed a tree of groups, identities with roles, repos with tags and advisories", async () => {
    const created = await emu.ok<{ created: Record<string, number> }>("POST", "/_emulator/fixtures", {
      body: {
        roles: [{ name: "fixture-role", capabilities: ["groups.list"] }],
        groups: [
          {
            name: "fixture-team",
            groups: [{ name: "fixture-sub" }],
            identities: [
              {
                name: "bot",
                claimMatch: { issuer: emu.issuerUrl, subject: "bot" },
                roles: ["viewer", "fixture-role"],
              },
            ],
            repos: [{ name: "svc", tags: [{ name: "latest" }] }],
            advisories: [{ aliases: ["CVE-1"], artifactName: "svc" }],
          },
        ],
      },
    });
    expect(created.created).toEqual({
      roles: 1,
      groups: 2,
      identities: 1,
      roleBindings: 2,
      repos: 1,
      tags: 1,
      advisories: 1,
    });
    const team = await emu.ok<{ groups: { uid: string }[] }>("GET", "/iam/v2beta1/groups", {
      query: { name: "fixture-team" },
    });
    const teamUid = team.groups[0]?.uid as string;
    const advisories = await emu.ok<{
      advisories: { uid: string; aliases: string[]; artifactName: string }[];
    }>("GET", "/vulnerabilities/v2beta1/advisories", { query: { "uidp.children_of": teamUid } });
    expect(advisories.advisories).toMatchObject([{ aliases: ["CVE-1"], artifactName: "svc" }]);
    expect(advisories.advisories[0]?.uid.startsWith(`${teamUid}/`)).toBe(true);
  });
});

describe("v1 read paths", () => {
  test("GET /iam/v1/groups and /registry/v1/repos answer the v1 shape side by side with v2", async () => {
    const g = await emu.group("v1-visible");
    await emu.ok("POST", "/_emulator/repos", { body: { parentUid: g.uid, name: "v1repo" } });
    const groups = V1List.parse(await emu.ok("GET", "/iam/v1/groups"));
    const item = groups.items.find((i) => i.id === g.uid);
    expect(item).toMatchObject({
      id: g.uid,
      name: "v1-visible",
      createdAt: g.createTime,
      updatedAt: g.updateTime,
    });
    expect(item).not.toHaveProperty("uid");
    const byId = V1List.parse(await emu.ok("GET", "/iam/v1/groups", { query: { id: g.uid } }));
    expect(byId.items.map((i) => i.id)).toEqual([g.uid]);
    const repos = V1List.parse(await emu.ok("GET", "/registry/v1/repos"));
    expect(repos.items.some((r) => r.name === "v1repo" && typeof r.createdAt === "string")).toBe(true);
  });
});
