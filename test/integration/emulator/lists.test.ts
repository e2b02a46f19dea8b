// Lists (AIP-132/158 and spec section 4): filters, page sizes, page tokens bound to their query and
// expiring after three days, ordering across cursors, skip, totalCount.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ErrorBody, Group, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

interface GroupPage {
  groups: Group[];
  nextPageToken?: string;
  totalCount: string;
  skipped: number;
}

let now = Date.parse("2026-03-01T12:00:00.000Z");
let emu: TestEmulator;
let parent: Group;
let children: Group[];

beforeAll(async () => {
  // A clock the tests move (page token expiry); it also ticks 1 ms per read so creation times differ.
  emu = await startTestEmulator({ clock: () => now++ });
  parent = await emu.group("list-parent");
  children = [];
  // 14 children with names out of creation order, plus grandchildren under the first one.
  const names = ["n", "b", "k", "a", "m", "c", "l", "d", "j", "e", "i", "f", "h", "g"];
  for (const n of names) children.push(await emu.group(`child-${n}`, parent.uid));
  await emu.group("grandchild-1", children[0]?.uid);
  await emu.group("grandchild-2", children[0]?.uid);
});
afterAll(() => emu.close());

const list = (query: Record<string, string | number | undefined>) =>
  emu.ok<GroupPage>("GET", "/iam/v2beta1/groups", { query });

async function all(
  query: Record<string, string | number | undefined>,
): Promise<{ uids: string[]; pages: number }> {
  const uids: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await list({ ...query, page_token: token });
    pages++;
    uids.push(...page.groups.map((g) => g.uid));
    token = page.nextPageToken;
  } while (token !== undefined);
  return { uids, pages };
}

describe("filters", () => {
  test("uidp.children_of keeps direct children only; uidp.descendants_of everything below", async () => {
    const kids = await list({ "uidp.children_of": parent.uid });
    expect(kids.groups.map((g) => g.uid)).toEqual(children.map((c) => c.uid));
    expect(kids.totalCount).toBe("14");
    const below = await list({ "uidp.descendants_of": parent.uid });
    expect(below.totalCount).toBe("16");
    expect(below.groups.every((g) => g.uid.startsWith(`${parent.uid}/`))).toBe(true);
    expect(below.groups.some((g) => g.uid === parent.uid)).toBe(false);
  });

  test("name is an exact match and combines with the scoping filters", async () => {
    const byName = await list({ name: "child-k" });
    expect(byName.groups.map((g) => g.name)).toEqual(["child-k"]);
    expect((await list({ name: "child" })).groups).toEqual([]);
    const scoped = await list({ name: "grandchild-1", "uidp.descendants_of": parent.uid });
    expect(scoped.groups).toHaveLength(1);
    expect((await list({ name: "grandchild-1", "uidp.children_of": parent.uid })).groups).toHaveLength(0);
  });

  test("a scoping filter that is not a uid is code 3 naming the parameter", async () => {
    const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups", {
      query: { "uidp.children_of": "nope" },
    });
    expect(a.body.code).toBe(3);
    expect(
      detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations[0]?.field,
    ).toBe("uidp.children_of");
  });
});

describe("page sizes", () => {
  test("page_size limits a page and the last page has no nextPageToken", async () => {
    const first = await list({ "uidp.children_of": parent.uid, page_size: 5 });
    expect(first.groups).toHaveLength(5);
    expect(first.nextPageToken).toEqual(expect.any(String));
    const { uids, pages } = await all({ "uidp.children_of": parent.uid, page_size: 5 });
    expect(pages).toBe(3);
    expect(uids).toEqual(children.map((c) => c.uid));
    const exact = await list({ "uidp.children_of": parent.uid, page_size: 14 });
    expect(exact.groups).toHaveLength(14);
    expect(exact).not.toHaveProperty("nextPageToken");
  });

  test("the default page size is 50 and a larger page_size is lowered to 200", async () => {
    const bulk = await emu.group("bulk");
    for (let i = 0; i < 210; i++) await emu.group(`b${i}`, bulk.uid);
    const defaultPage = await list({ "uidp.children_of": bulk.uid });
    expect(defaultPage.groups).toHaveLength(50);
    expect(defaultPage.totalCount).toBe("210");
    const capped = await list({ "uidp.children_of": bulk.uid, page_size: 1000 });
    expect(capped.groups).toHaveLength(200);
    const zero = await list({ "uidp.children_of": bulk.uid, page_size: 0 });
    expect(zero.groups).toHaveLength(50);
  });

  test.each([
    ["page_size", "-1"],
    ["page_size", "2.5"],
    ["page_size", "ten"],
    ["skip", "-3"],
    ["skip", "1e3"],
  ])("%s=%s is code 3 naming the parameter", async (param, value) => {
    const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups", { query: { [param]: value } });
    expect(a.status).toBe(400);
    expect(a.body.code).toBe(3);
    expect(a.body.message.startsWith("Invalid argument:")).toBe(true);
    expect(
      detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations[0]?.field,
    ).toBe(param);
  });
});

describe("ordering", () => {
  const byName = () => [...children].sort((a, b) => a.name.localeCompare(b.name)).map((c) => c.uid);

  test("order_by name, name desc, created_at desc and uid hold across cursors", async () => {
    const scope = { "uidp.children_of": parent.uid, page_size: 4 };
    expect((await all({ ...scope, order_by: "name" })).uids).toEqual(byName());
    expect((await all({ ...scope, order_by: "name asc" })).uids).toEqual(byName());
    expect((await all({ ...scope, order_by: "name desc" })).uids).toEqual(byName().reverse());
    expect((await all({ ...scope, order_by: "created_at desc" })).uids).toEqual(
      children.map((c) => c.uid).reverse(),
    );
    expect((await all({ ...scope, order_by: "created_at" })).uids).toEqual(children.map((c) => c.uid));
    expect((await all({ ...scope, order_by: "uid" })).uids).toEqual(children.map((c) => c.uid).sort());
    expect((await all({ ...scope, order_by: "uid desc" })).uids).toEqual(
      children
        .map((c) => c.uid)
        .sort()
        .reverse(),
    );
  });

  test("the default order is creation order", async () => {
    expect((await all({ "uidp.children_of": parent.uid, page_size: 3 })).uids).toEqual(
      children.map((c) => c.uid),
    );
  });

  test("equal names are ordered by uid, so the order is total and pages never repeat or skip", async () => {
    const twins = await emu.group("twins");
    const uids: string[] = [];
    for (const sub of ["x", "y", "z", "w"]) {
      const holder = await emu.group(sub, twins.uid);
      uids.push((await emu.group("same", holder.uid)).uid);
    }
    const listed = await all({
      "uidp.descendants_of": twins.uid,
      name: "same",
      order_by: "name",
      page_size: 1,
    });
    expect(listed.uids).toEqual([...uids].sort());
  });

  test.each(["size", "name up", "name desc, uid", "createTime"])("order_by %j is code 3", async (orderBy) => {
    const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups", { query: { order_by: orderBy } });
    expect(a.body.code).toBe(3);
    expect(
      detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations[0]?.field,
    ).toBe("order_by");
  });
});

describe("skip and totalCount", () => {
  test("skip=10 with page_size=5 over 14 results answers the last 4 with skipped 10", async () => {
    const page = await list({ "uidp.children_of": parent.uid, skip: 10, page_size: 5 });
    expect(page.groups.map((g) => g.uid)).toEqual(children.slice(10).map((c) => c.uid));
    expect(page.skipped).toBe(10);
    expect(page.totalCount).toBe("14");
    expect(page).not.toHaveProperty("nextPageToken");
  });

  test("skipped is 0 without skip and counts only what was there to skip", async () => {
    expect((await list({ "uidp.children_of": parent.uid })).skipped).toBe(0);
    const past = await list({ "uidp.children_of": parent.uid, skip: 20 });
    expect(past.groups).toEqual([]);
    expect(past.skipped).toBe(14);
  });

  test("skip combines with order_by and with a page token (skipping from the token's position)", async () => {
    const sorted = [...children].sort((a, b) => b.name.localeCompare(a.name)).map((c) => c.uid);
    const first = await list({
      "uidp.children_of": parent.uid,
      order_by: "name desc",
      skip: 2,
      page_size: 3,
    });
    expect(first.groups.map((g) => g.uid)).toEqual(sorted.slice(2, 5));
    const second = await list({
      "uidp.children_of": parent.uid,
      order_by: "name desc",
      skip: 1,
      page_size: 3,
      page_token: first.nextPageToken,
    });
    expect(second.groups.map((g) => g.uid)).toEqual(sorted.slice(6, 9));
  });

  test("totalCount is a string holding the number of matches across all pages", async () => {
    const page = await list({ "uidp.children_of": parent.uid, page_size: 1 });
    expect(page.totalCount).toBe("14");
    expect(typeof page.totalCount).toBe("string");
  });
});

describe("page tokens", () => {
  test("a token is bound to its filters and order: changing them is code 3", async () => {
    const first = await list({ "uidp.children_of": parent.uid, page_size: 2, order_by: "name" });
    for (const changed of [
      { "uidp.children_of": parent.uid, order_by: "name desc" },
      { "uidp.children_of": parent.uid },
      { "uidp.descendants_of": parent.uid, order_by: "name" },
      { "uidp.children_of": parent.uid, order_by: "name", name: "child-a" },
    ]) {
      const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups", {
        query: { ...changed, page_token: first.nextPageToken },
      });
      expect(a.body.code).toBe(3);
      expect(
        detail<{ fieldViolations: { field: string }[] }>(a.body, "BadRequest").fieldViolations[0]?.field,
      ).toBe("page_token");
    }
    const otherKind = await emu.call<ErrorBody>("GET", "/iam/v2beta1/identities", {
      query: { "uidp.children_of": parent.uid, order_by: "name", page_token: first.nextPageToken },
    });
    expect(otherKind.body.code).toBe(3);
  });

  test("page_size may change between pages", async () => {
    const first = await list({ "uidp.children_of": parent.uid, page_size: 2 });
    const second = await list({
      "uidp.children_of": parent.uid,
      page_size: 7,
      page_token: first.nextPageToken,
    });
    expect(second.groups.map((g) => g.uid)).toEqual(children.slice(2, 9).map((c) => c.uid));
  });

  test("a forged or edited token is code 3", async () => {
    const first = await list({ "uidp.children_of": parent.uid, page_size: 2 });
    const token = first.nextPageToken as string;
    const [body, mac] = token.split(".") as [string, string];
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { c: unknown[] };
    payload.c[0] = 0;
    const edited = `${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${mac}`;
    for (const t of [edited, "garbage", `${body}.AAAA`]) {
      const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups", {
        query: { "uidp.children_of": parent.uid, page_size: 2, page_token: t },
      });
      expect(a.body.code).toBe(3);
    }
  });

  test("a token older than three days restarts the list from the beginning without an error", async () => {
    const first = await list({ "uidp.children_of": parent.uid, page_size: 3 });
    now += 3 * 24 * 3600 * 1000 - 1000;
    const fresh = await list({
      "uidp.children_of": parent.uid,
      page_size: 3,
      page_token: first.nextPageToken,
    });
    expect(fresh.groups[0]?.uid).toBe(children[3]?.uid);
    now += 2000;
    const expired = await list({
      "uidp.children_of": parent.uid,
      page_size: 3,
      page_token: first.nextPageToken,
    });
    expect(expired.groups.map((g) => g.uid)).toEqual(children.slice(0, 3).map((c) => c.uid));
  });

  test("camelCase parameter names work as aliases", async () => {
    const page = await list({ "uidp.childrenOf": parent.uid, pageSize: 2, orderBy: "name desc" });
    expect(page.groups).toHaveLength(2);
    expect(page.groups[0]?.name).toBe("child-n");
  });
});

describe("other collections", () => {
  test("every list endpoint answers the envelope with its plural key", async () => {
    for (const [path, key] of [
      ["/iam/v2beta1/identities", "identities"],
      ["/iam/v2beta1/roles", "roles"],
      ["/iam/v2beta1/roleBindings", "roleBindings"],
      ["/iam/v2beta1/identityProviders", "identityProviders"],
      ["/iam/v2beta1/accountAssociations", "accountAssociations"],
      ["/iam/v2beta1/groupInvites", "groupInvites"],
      ["/registry/v2beta1/repos", "repos"],
      ["/registry/v2beta1/tags", "tags"],
      ["/vulnerabilities/v2beta1/advisories", "advisories"],
    ] as const) {
      const page = await emu.ok<Record<string, unknown>>("GET", path, { query: { page_size: 1 } });
      expect(Array.isArray(page[key])).toBe(true);
      expect(page.totalCount).toMatch(/^\d+$/);
      expect(page.skipped).toBe(0);
    }
  });

  test("built-in roles pass every scoping filter: they are usable in every group", async () => {
    const all = await emu.ok<{ roles: unknown[] }>("GET", "/iam/v2beta1/roles");
    const scoped = await emu.ok<{ roles: unknown[] }>("GET", "/iam/v2beta1/roles", {
      query: { "uidp.descendants_of": parent.uid },
    });
    expect(scoped.roles).toEqual(all.roles);
  });
});

describe("the advisories list's own filters (vuln/advisories.proto:355-448)", () => {
  interface AdvisoryPage {
    advisories: { advisoryId: string; aliases: string[] }[];
    nextPageToken?: string;
    totalCount: string;
  }
  const path = "/vulnerabilities/v2beta1/advisories";
  let group: Group;
  const ids = (p: AdvisoryPage) => p.advisories.map((a) => a.advisoryId);

  beforeAll(async () => {
    group = await emu.group("advisory-filters");
    for (const [advisoryId, aliases] of [
      ["CGA-2222-2222-2222", ["CVE-2026-0001", "GHSA-aaaa-aaaa-aaaa"]],
      ["CGA-3333-3333-3333", ["CVE-2026-0002"]],
      ["CGA-4444-4444-4444", ["CVE-2026-0001"]],
      ["CGA-5555-5555-5555", []],
    ] as const)
      await emu.ok("POST", "/_emulator/advisories", { body: { parentUid: group.uid, advisoryId, aliases } });
  });
  const scoped = (query: string) => `${path}?uidp.children_of=${group.uid}&order_by=uid${query}`;

  test("name is ignored, as the gateway ignores a parameter the request lacks", async () => {
    const page = await emu.ok<AdvisoryPage>("GET", scoped("&name=CVE-2026-0001"));
    expect(page.totalCount).toBe("4");
  });

  test("aliases keeps advisories listing any of the given ids, the key repeated once per value", async () => {
    const one = await emu.ok<AdvisoryPage>("GET", scoped("&aliases=CVE-2026-0001"));
    expect(ids(one).sort()).toEqual(["CGA-2222-2222-2222", "CGA-4444-4444-4444"]);
    expect(one.totalCount).toBe("2");
    const two = await emu.ok<AdvisoryPage>(
      "GET",
      scoped("&aliases=GHSA-aaaa-aaaa-aaaa&aliases=CVE-2026-0002"),
    );
    expect(ids(two).sort()).toEqual(["CGA-2222-2222-2222", "CGA-3333-3333-3333"]);
  });

  test("advisory_ids (or advisoryIds) keeps the advisories with those CGA ids, and combines with aliases", async () => {
    const byId = await emu.ok<AdvisoryPage>(
      "GET",
      scoped("&advisory_ids=CGA-3333-3333-3333&advisoryIds=CGA-5555-5555-5555"),
    );
    expect(ids(byId).sort()).toEqual(["CGA-3333-3333-3333", "CGA-5555-5555-5555"]);
    const both = await emu.ok<AdvisoryPage>(
      "GET",
      scoped("&advisory_ids=CGA-2222-2222-2222&advisory_ids=CGA-3333-3333-3333&aliases=CVE-2026-0001"),
    );
    expect(ids(both)).toEqual(["CGA-2222-2222-2222"]);
  });

  test("a page token is bound to the filter values", async () => {
    const first = await emu.ok<AdvisoryPage>("GET", `${scoped("&aliases=CVE-2026-0001")}&page_size=1`);
    expect(first.nextPageToken).toBeTruthy();
    const next = await emu.ok<AdvisoryPage>(
      "GET",
      `${scoped("&aliases=CVE-2026-0001")}&page_size=1&page_token=${first.nextPageToken}`,
    );
    expect([...ids(first), ...ids(next)].sort()).toEqual(["CGA-2222-2222-2222", "CGA-4444-4444-4444"]);
    const other = await emu.call<ErrorBody>(
      "GET",
      `${scoped("&aliases=CVE-2026-0002")}&page_size=1&page_token=${first.nextPageToken}`,
    );
    expect(other.body.code).toBe(3);
  });

  test("other kinds take no such filter: aliases= on repos changes nothing", async () => {
    const all = await emu.ok<{ totalCount: string }>("GET", "/registry/v2beta1/repos");
    const filtered = await emu.ok<{ totalCount: string }>("GET", "/registry/v2beta1/repos?aliases=x");
    expect(filtered.totalCount).toBe(all.totalCount);
  });
});
