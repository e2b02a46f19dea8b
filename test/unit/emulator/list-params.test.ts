import { expect, test } from "vitest";
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  parseListParams,
  queryKey,
} from "../../../emulator/lists/index.js";

const uid = "0123456789abcdef0123456789abcdef01234567";

test("defaults: page size 50, creation order, no skip, no filters", () => {
  expect(parseListParams({})).toEqual({
    pageSize: DEFAULT_PAGE_SIZE,
    pageToken: undefined,
    sort: "created_at",
    descending: false,
    skip: 0,
    name: undefined,
    childrenOf: undefined,
    descendantsOf: undefined,
    filters: [],
  });
});

test("caps page_size at 200 and treats 0 as the default", () => {
  expect(parseListParams({ page_size: "999" }).pageSize).toBe(MAX_PAGE_SIZE);
  expect(parseListParams({ page_size: "0" }).pageSize).toBe(DEFAULT_PAGE_SIZE);
});

test("reads order_by with a direction and the scoping filters", () => {
  expect(parseListParams({ order_by: "  name   desc ", "uidp.children_of": uid })).toMatchObject({
    sort: "name",
    descending: true,
    childrenOf: uid,
  });
});

test("reports every bad parameter in one error", () => {
  try {
    parseListParams({ page_size: "-2", skip: "1.5", order_by: "size", "uidp.descendants_of": "x" });
    expect.unreachable();
  } catch (e) {
    const fields = (
      e as { details: { fieldViolations: { field: string }[] }[] }
    ).details[0]?.fieldViolations.map((v) => v.field);
    expect(fields).toEqual(["page_size", "skip", "uidp.descendants_of", "order_by"]);
  }
});

test("the query key ignores paging and depends on filters and order", () => {
  const a = parseListParams({ page_size: "5", skip: "3", name: "x" });
  const b = parseListParams({ page_size: "7", name: "x" });
  expect(queryKey("groups", a)).toBe(queryKey("groups", b));
  expect(queryKey("groups", a)).not.toBe(queryKey("identities", a));
  expect(queryKey("groups", a)).not.toBe(
    queryKey("groups", parseListParams({ name: "x", order_by: "name" })),
  );
});

test("a kind's own repeated filters take every value of their names, drop empty ones, and key the query", () => {
  const ADVISORY_FILTERS = [
    { names: ["advisory_ids", "advisoryIds"], field: "advisoryId" },
    { names: ["aliases"], field: "aliases" },
  ] as const;
  const p = parseListParams(
    { advisory_ids: ["CGA-b", "CGA-a"], advisoryIds: "CGA-a", aliases: "", page_size: "5" },
    ADVISORY_FILTERS,
  );
  expect(p.filters).toEqual([{ field: "advisoryId", values: ["CGA-a", "CGA-b"] }]);
  // A repeated filter key is not the "given at most once" violation of the single parameters.
  expect(parseListParams({ aliases: ["CVE-1", "CVE-2"] }, ADVISORY_FILTERS).filters).toEqual([
    { field: "aliases", values: ["CVE-1", "CVE-2"] },
  ]);
  expect(queryKey("advisories", p)).not.toBe(queryKey("advisories", parseListParams({}, ADVISORY_FILTERS)));
  // Without the kind's filter list the parameters mean nothing (other kinds).
  expect(parseListParams({ aliases: "CVE-1" }).filters).toEqual([]);
});
