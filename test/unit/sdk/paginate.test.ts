import { describe, expect, it } from "vitest";
import type { ListQuery, Page } from "../../../sdk/index.js";
import { collect, fetchAllParallel, IrvClient, paginate } from "../../../sdk/index.js";
import { mockApi } from "./mock-api.js";

type Item = { uid: string; name: string };
const items = (n: number): Item[] =>
  Array.from({ length: n }, (_, i) => ({ uid: `u${String(i).padStart(5, "0")}`, name: `n${i}` }));

/** A page fetcher over an in-memory list, with offset cursors, counting calls. */
function fakeServer(all: Item[], opts: { expireTokenOnce?: boolean } = {}) {
  const calls: ListQuery[] = [];
  let expired = false;
  const fetchPage = async (q: ListQuery): Promise<Page<Item>> => {
    calls.push(q);
    let start = (q.pageToken ? Number(q.pageToken) : 0) + (q.skip ?? 0);
    if (q.pageToken && opts.expireTokenOnce && !expired) {
      expired = true;
      start = 0; // the spec: an expired token starts the query again from the beginning
    }
    const size = Math.min(q.pageSize ?? 50, 200);
    const page = all.slice(start, start + size);
    const end = start + page.length;
    return {
      items: page,
      nextPageToken: end < all.length ? String(end) : undefined,
      totalCount: all.length,
      skipped: q.skip ?? 0,
    };
  };
  return { fetchPage, calls };
}

describe("paginate", () => {
  it("yields every item once, in order, across pages of 200", async () => {
    const s = fakeServer(items(450));
    const got = await collect(paginate(s.fetchPage));
    expect(got.map((i) => i.uid)).toEqual(items(450).map((i) => i.uid));
    expect(s.calls.map((c) => c.pageSize)).toEqual([200, 200, 200]);
  });

  it("does not duplicate items when an expired token restarts the list", async () => {
    const s = fakeServer(items(30), { expireTokenOnce: true });
    const got = await collect(paginate(s.fetchPage, { pageSize: 10 }));
    expect(got.map((i) => i.uid)).toEqual(items(30).map((i) => i.uid));
  });

  it("applies skip only to the first page", async () => {
    const s = fakeServer(items(14));
    const got = await collect(paginate(s.fetchPage, { skip: 10, pageSize: 5 }));
    expect(got.map((i) => i.name)).toEqual(["n10", "n11", "n12", "n13"]);
    expect(s.calls).toHaveLength(1);
  });

  it("stops at an empty list with one call", async () => {
    const s = fakeServer([]);
    expect(await collect(paginate(s.fetchPage))).toEqual([]);
    expect(s.calls).toHaveLength(1);
  });
});

describe("fetchAllParallel", () => {
  it("returns every item in order, fetching the remaining pages by offset", async () => {
    const s = fakeServer(items(1050));
    const got = await fetchAllParallel(s.fetchPage, {}, { concurrency: 3 });
    expect(got.map((i) => i.uid)).toEqual(items(1050).map((i) => i.uid));
    expect(s.calls).toHaveLength(6);
    expect(
      s.calls
        .slice(1)
        .map((c) => c.skip)
        .sort((a, b) => (a ?? 0) - (b ?? 0)),
    ).toEqual([200, 400, 600, 800, 1000]);
    expect(s.calls.every((c) => c.pageToken === undefined)).toBe(true);
  });

  it("keeps at most `concurrency` pages in flight", async () => {
    const all = items(2000);
    let inFlight = 0;
    let peak = 0;
    const base = fakeServer(all);
    const slow = async (q: ListQuery) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return base.fetchPage(q);
    };
    expect(await fetchAllParallel(slow, {}, { concurrency: 4 })).toHaveLength(2000);
    expect(peak).toBe(4);
  });

  it("follows the cursor when the list grew while pages were fetched", async () => {
    const all = items(450);
    const s = fakeServer(all);
    let first = true;
    const growing = async (q: ListQuery) => {
      const p = await s.fetchPage(q);
      if (first) {
        first = false;
        all.push(...items(460).slice(450));
      }
      return p;
    };
    const got = await fetchAllParallel(growing);
    expect(got).toHaveLength(460);
  });
});

describe("list envelope over HTTP", () => {
  it("reads the spec's example: skip=10 and page_size=5 over 14 results give 4 items and skipped 10", async () => {
    const { agent, origin, pool } = mockApi();
    const groups = items(14)
      .slice(10)
      .map((i) => ({
        ...i,
        resourceLimits: {},
        verified: false,
        createTime: "2026-11-21T10:00:00.000Z",
        updateTime: "2026-11-21T10:00:00.000Z",
      }));
    pool
      .intercept({ path: "/iam/v2/groups?page_size=5&skip=10", method: "GET" })
      .reply(200, { groups, totalCount: "14", skipped: 10 });
    const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });
    const page = await client.groups.list({ pageSize: 5, skip: 10 });
    expect(page.items).toHaveLength(4);
    expect(page.skipped).toBe(10);
    expect(page.totalCount).toBe(14);
    expect(page.nextPageToken).toBeUndefined();
  });

  it("treats an empty nextPageToken as the last page and accepts a numeric totalCount", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: "/iam/v2/roles", method: "GET" })
      .reply(200, { roles: [{ uid: "ab12", name: "viewer" }], nextPageToken: "", totalCount: 1 });
    const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });
    const page = await client.roles.list();
    expect(page).toEqual({
      items: [{ uid: "ab12", name: "viewer", capabilities: [] }],
      nextPageToken: undefined,
      totalCount: 1,
      skipped: 0,
    });
  });

  it("sends the scoping filters with the spec's parameter names", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({
        path: "/registry/v2/repos?uidp.descendants_of=abc&name=app&order_by=name+desc&page_size=200",
        method: "GET",
      })
      .reply(200, { repos: [], totalCount: "0" });
    const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });
    expect(await client.repos.collect({ descendantsOf: "abc", name: "app", orderBy: "name desc" })).toEqual(
      [],
    );
  });
});
