// The review's picture: a mermaid flowchart of the affected subtree in the comment (parsed by
// mermaid's own parser), capped in size, and the same as an indented tree in the text format.
import { expect, test } from "vitest";
import type { KnownRole, StackResource } from "../../../../review/index.js";
import {
  orgModelOf,
  renderMarkdown,
  renderMermaid,
  renderText,
  renderTree,
  reviewAccess,
  uidIndexOf,
} from "../../../../review/index.js";
import { CAPABILITIES } from "../../../../sdk/index.js";
import { mermaidBlocks, parseMermaid } from "../../../support/mermaid-parse.js";
import { iamResource, ORG, seg } from "../../provider/iam-resource.js";

const OWNER = "3".repeat(40);
const VIEWER = "1".repeat(40);
const roles: KnownRole[] = [
  { uid: OWNER, name: "owner", capabilities: [...CAPABILITIES] },
  { uid: VIEWER, name: "viewer", capabilities: CAPABILITIES.filter((c) => c.endsWith(".list")) },
];
const res = iamResource;
const platform = `${ORG}/${seg(1)}`;
const payments = `${platform}/${seg(2)}`;
const id = (n: number, group: string, name: string) =>
  res("Identity", name, {
    uid: `${group}/${seg(n)}`,
    groupUid: group,
    name,
    claimMatch: { issuer: "https://i", subject: name },
  });
const bind = (name: string, group: string, identity: string, role: string) =>
  res("RoleBinding", name, { groupUid: group, identityUid: identity, roleUid: role });
const base = [
  res("Group", "platform", { uid: platform, parentUid: ORG, name: "platform" }),
  res("Group", "payments", { uid: payments, parentUid: platform, name: 'payments "core"' }),
  id(3, platform, "payments-ci"),
  id(4, platform, "auditor"),
  bind("auditor-viewer", payments, `${platform}/${seg(4)}`, VIEWER),
];
function review(before: StackResource[], after: StackResource[]) {
  const uidIndex = uidIndexOf([...before, ...after]);
  return reviewAccess(orgModelOf(before, { roles, uidIndex }), orgModelOf(after, { roles, uidIndex }));
}

test("the comment's mermaid block parses, names the changed groups and identities, and marks the risky edge", async () => {
  const after = [
    ...base.filter((r) => !r.urn.endsWith("::auditor-viewer")),
    bind("ci-owner", ORG, `${platform}/${seg(3)}`, OWNER),
  ];
  const r = review(base, after);
  const md = renderMarkdown([{ stack: "dev", review: r }]);
  const blocks = mermaidBlocks(md);
  expect(blocks).toHaveLength(1);
  expect((await parseMermaid(blocks[0]!)).diagramType).toMatch(/^flowchart/);
  const block = blocks[0]!;
  // The root (where payments-ci gains owner, risky) and payments (where auditor loses viewer).
  expect(block).toContain('"/ (root)"');
  expect(block).toContain('"payments #34;core#34;"');
  expect(block).toContain('"payments-ci"');
  expect(block).toMatch(/-->\|"\+ owner: all of owner ⚠️ owner-equivalent, escalation, root"\|/);
  expect(block).toMatch(/-\.->\|"− viewer: all of viewer"\|/);
  expect(block).toMatch(/^ {2}linkStyle \d+ stroke:#d00/m);
  // A mistake in the picture would fail here: mermaid refuses a broken block.
  await expect(parseMermaid(`${block}\n  g -->`)).rejects.toThrow(/Parse error/);

  // The text format shows the same as an indented tree.
  expect(renderTree(r.rows)).toEqual([
    "/",
    "  + payments-ci owner: all of owner [owner-equivalent, escalation, root]",
    "  platform/",
    '    payments "core"/',
    "      - auditor viewer: all of viewer",
  ]);
  expect(renderText([{ stack: "dev", review: r }])).toContain("\n    + payments-ci owner: all of owner");
});

test("over the size cap the comment has the table only", () => {
  const many = Array.from({ length: 40 }, (_, i) => id(10 + i, platform, `ci-${i}`));
  const after = [
    ...base,
    ...many,
    ...many.map((m, i) => bind(`b-${i}`, payments, String(m.props.uid), VIEWER)),
  ];
  const r = review([...base, ...many], after);
  expect(r.rows).toHaveLength(40);
  expect(renderMermaid(r.rows)).toBeUndefined();
  const md = renderMarkdown([{ stack: "dev", review: r }]);
  expect(mermaidBlocks(md)).toEqual([]);
  expect(md).toContain("| Change |");
  expect(renderMermaid(r.rows.slice(0, 5))).toBeDefined();
});
