// The review's renderers: one PR comment (marker, summary, size cap that never drops risky rows),
// the versioned JSON, the text table, and reading the two sides of a `pulumi preview --json`.
import { expect, test } from "vitest";
import type { AccessReview, AccessRow } from "../../../../review/index.js";
import {
  PREVIEW_UNKNOWN,
  REVIEW_MARKER,
  renderMarkdown,
  renderText,
  reviewJson,
  sidesOfPreview,
  TEXT_WIDTH,
} from "../../../../review/index.js";

const grant = (n: number) => ({ binding: `b-${n}`, role: "editor", group: `/team-${n}`, roleEdited: false });
const row = (n: number, over: Partial<AccessRow> = {}): AccessRow => ({
  id: `ag-${n.toString(16).padStart(16, "0")}`,
  state: "gained",
  identity: {
    ref: `urn:i${n}`,
    name: `identity-${n}`,
    uid: `${"a".repeat(40)}/${n.toString(16).padStart(16, "0")}`,
    isNew: false,
  },
  subtree: { ref: `urn:g${n}`, path: `/team-${n}`, root: false },
  capabilities: ["groups.create", "groups.list"],
  findings: [
    { id: `ar-${n.toString(16).padStart(16, "0")}`, capability: "groups.create" },
    { id: `ar-${(n + 1e6).toString(16).padStart(16, "0")}`, capability: "groups.list" },
  ],
  grant: grant(n),
  provenance: [grant(n)],
  risks: [],
  ...over,
});
const review = (rows: AccessRow[], over: Partial<AccessReview> = {}): AccessReview => ({
  rows,
  ownerCapabilities: [],
  before: [],
  after: [],
  ...over,
});

test("no change: the comment carries the marker and says there is no access change", () => {
  const md = renderMarkdown([{ stack: "dev", review: review([]) }]);
  expect(md.startsWith(REVIEW_MARKER)).toBe(true);
  expect(md).toContain("**No access change.**");
  expect(md).not.toContain("| Change |");
});

test("the summary counts identities gaining access and the risky ones; provenance is collapsible", () => {
  const rows = [row(1), row(2, { risks: ["root"] }), row(3, { state: "lost" })];
  const md = renderMarkdown([{ stack: "dev", review: review(rows) }]);
  expect(md).toContain("**2 identities gain access, 1 risky. 1 identity loses access.**");
  expect(md).toContain(
    "<details><summary>Each capability of each row (and its per-capability finding id)</summary>",
  );
  expect(md).toContain("groups.create (`ar-0000000000000002`)");
  expect(md).toMatch(
    /\| ➕ gained \| `identity-2`.*\| `\/team-2` \| `b-2` → `editor` on `\/team-2` \| `groups.create`, `groups.list` \| ⚠️ root \| `ag-0{15}2` \|/,
  );
  // A row holding all of a role's set says so instead of listing it.
  const all = renderMarkdown([
    { stack: "dev", review: review([row(4, { allOf: { role: "owner", count: 37 } })]) },
  ]);
  expect(all).toContain("| all of `owner` (37) |");
});

test("a pipe or backtick in a matcher cannot break the table", () => {
  const md = renderMarkdown([
    {
      stack: "dev",
      review: review([
        row(1, { identity: { ...row(1).identity, matcher: { subjectPattern: "repo:a/(x|y)`" } } }),
      ]),
    },
  ]);
  expect(md).toContain("subjectPattern: `repo:a/(x\\|y)'`");
});

test("over the size cap: provenance goes first, then non-risky rows; risky rows and the lock-out always stay", () => {
  const rows = [
    ...Array.from({ length: 400 }, (_, i) => row(i)),
    ...Array.from({ length: 30 }, (_, i) => row(1000 + i, { risks: ["escalation"] })),
  ];
  const lockOut = { id: "ar-00000000000000ff", removed: ["admin-owner"] };
  const stacks = [{ stack: "prod", review: review(rows, { lockOut }) }];
  const full = renderMarkdown(stacks, { maxChars: 1e9 });
  expect(full).toContain("<details>");

  const capped = renderMarkdown(stacks, { maxChars: 20_000 });
  expect(capped.length).toBeLessThanOrEqual(20_000);
  expect(capped).not.toContain("<details>");
  for (let i = 0; i < 30; i++) expect(capped).toContain(`identity-${1000 + i}\``);
  expect(capped).toContain("ar-00000000000000ff");
  expect(capped).toMatch(/_\d+ more non-risky rows not shown/);

  // Even a cap too small for the risky rows alone keeps every one of them.
  const tiny = renderMarkdown(stacks, { maxChars: 100 });
  for (let i = 0; i < 30; i++) expect(tiny).toContain(`identity-${1000 + i}\``);
  expect(tiny).not.toContain("`identity-5`");
});

test("JSON: versioned, before/after/diff per stack; text: a line per row, its grant and capabilities below", () => {
  const r = review([row(1, { risks: ["root"] })]);
  const doc = reviewJson([{ stack: "dev", review: r }]);
  expect(doc).toMatchObject({
    schemaVersion: 1,
    summary: "1 identity gains access, 1 risky.",
    stacks: [{ stack: "dev", lockOut: null }],
  });
  expect(doc.stacks[0]?.diff[0]?.findings).toHaveLength(2);
  const text = renderText([{ stack: "dev", review: r }]);
  expect(text).toMatch(
    /^ {2}ag-0{15}1 {2}gained {2}identity-1 {2}\/team-1 {2}root\n {23}b-1 -> editor on \/team-1: groups\.create, groups\.list$/m,
  );
  expect(renderText([{ stack: "dev", review: review([]) }])).toContain("no access change");
});

test("a preview's steps give both sides: same/update/create kept, deletes gone, replacements once", () => {
  const st = (urn: string, inputs: Record<string, unknown>, outputs?: Record<string, unknown>) => ({
    urn,
    type: "pulumi-nodejs:dynamic/irv:Group",
    inputs,
    outputs,
  });
  const { before, after } = sidesOfPreview({
    steps: [
      {
        op: "same",
        urn: "u:a",
        oldState: st("u:a", { name: "a" }, { uid: "A" }),
        newState: st("u:a", { name: "a" }, { uid: "A" }),
      },
      { op: "delete", urn: "u:b", oldState: st("u:b", { name: "b" }) },
      {
        op: "create",
        urn: "u:c",
        newState: st("u:c", { name: "c" }, { uid: PREVIEW_UNKNOWN, name: PREVIEW_UNKNOWN }),
      },
      {
        op: "create-replacement",
        urn: "u:d",
        oldState: st("u:d", { name: "d" }),
        newState: st("u:d", { name: "d2" }),
      },
      { op: "replace", urn: "u:d", oldState: st("u:d", { name: "d" }), newState: st("u:d", { name: "d2" }) },
      {
        op: "delete-replaced",
        urn: "u:d",
        oldState: st("u:d", { name: "d" }),
        newState: st("u:d", { name: "d" }),
      },
    ],
  });
  expect(before.map((r) => r.urn)).toEqual(["u:a", "u:b", "u:d"]);
  expect(after.map((r) => [r.urn, r.props.name]).sort()).toEqual([
    ["u:a", "a"],
    ["u:c", "c"],
    ["u:d", "d2"],
  ]);
  expect(after.find((r) => r.urn === "u:c")?.props.uid).toBe(PREVIEW_UNKNOWN);
});

test("with the stack's state, resources the preview does not list stay in the planned state", () => {
  const untouched = { urn: "u:e", type: "pulumi-nodejs:dynamic/irv:Group", props: { name: "e" } };
  const { before, after } = sidesOfPreview(
    { steps: [{ op: "delete", urn: "u:b", oldState: { urn: "u:b", type: "t", inputs: {} } }] },
    [untouched, { urn: "u:b", type: "t", props: {} }],
  );
  expect(before.map((r) => r.urn)).toEqual(["u:e", "u:b"]);
  expect(after).toEqual([untouched]);
});

// Issue 40: the text table was as wide as its longest cell (uid, matcher, capability list: over
// 400 columns on a real review), so a terminal wrapped every row into an unreadable mess.
test("the text report fits 120 columns: identities by name, uids and matchers in the JSON and the comment's details", () => {
  const uid = `${"a".repeat(40)}/${"b".repeat(16)}/${"c".repeat(16)}`;
  const matcher = {
    issuer: "https://token.actions.githubusercontent.com",
    subjectPattern: "repo:acme/payments-service:environment:(production|staging)",
  };
  const wide = row(7, {
    identity: {
      ref: "urn:w",
      name: "payments-deployer-with-a-very-long-name-indeed",
      uid,
      isNew: false,
      matcher,
    },
    subtree: { ref: "urn:g", path: "/platform/payments/core/ci-runners/very-deep-group/leaf", root: false },
    capabilities: Array.from({ length: 40 }, (_, i) => `capability.number_${i}`),
    risks: ["owner-equivalent", "escalation", "root", "broad-matcher", "new-identity"],
    grant: {
      binding: "a-binding-whose-name-goes-on-and-on",
      role: "custom-deployer",
      group: "/platform/payments/core",
      roleEdited: true,
    },
  });
  const r = review([row(1, { risks: ["root"] }), wide]);
  const text = renderText([
    {
      stack: "prod",
      review: r,
      live: {
        requests: 3,
        subtrees: ["x"],
        outside: [
          {
            uid,
            identity: "auditor",
            role: "viewer",
            group: "/platform/payments/core/ci-runners/very-deep-group",
          },
        ],
      },
    },
  ]);
  const lines = text.split("\n");
  expect(lines.filter((l) => l.length > TEXT_WIDTH)).toEqual([]);
  expect(TEXT_WIDTH).toBe(120);
  // By name; every capability and risk still there (wrapped); the uid and the matcher are not.
  expect(text).toContain("  payments-deployer-with-…  ");
  expect(text).toContain("  …-runners/very-deep-group/leaf  ");
  for (const c of wide.capabilities) expect(text).toMatch(new RegExp(`${c.replace(".", "\\.")}(,|$)`, "m"));
  for (const risk of wide.risks) expect(text).toContain(risk);
  const table = lines.slice(lines.findIndex((l) => l.startsWith("  ROW")));
  expect(table.join("\n")).not.toContain(uid);
  expect(text).not.toContain("subjectPattern");
  // Where they are: the JSON row, and the comment's per-capability details.
  const json = reviewJson([{ stack: "prod", review: r }]).stacks[0]?.diff[1];
  expect(json?.identity).toMatchObject({ uid, matcher });
  const details = renderMarkdown([{ stack: "prod", review: r }]).split("<details>")[1] ?? "";
  expect(details).toContain(
    `**payments-deployer-with-a-very-long-name-indeed** (\`${uid}\`; issuer: \`https://token.actions.githubusercontent.com\`, subjectPattern: \`repo:acme/payments-service:environment:(production\\|staging)\``,
  );
});
