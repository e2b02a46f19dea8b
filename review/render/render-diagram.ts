import type { AccessRow } from "../access/index.js";
import { isGain, isRisky } from "../access/index.js";

/**
 * The size cap of the diagram: over this many nodes (groups and identities) or edges the comment
 * shows the table only — a picture that large no longer helps.
 *
 * @example
 * renderMermaid(rows, { maxNodes: DIAGRAM_MAX_NODES });
 */
export const DIAGRAM_MAX_NODES = 40;

// A group of the affected subtree, by path, with its children and the changes at it.
interface TreeNode {
  path: string;
  name: string;
  children: Map<string, TreeNode>;
  rows: AccessRow[];
}

const segments = (path: string): string[] => path.split("/").filter((s) => s !== "" && s !== "…");

/**
 * The affected subtree of a review: the groups from the root down to each group where access
 * changes, each with the rows (identity, grant, change) at it.
 *
 * @example
 * const tree = affectedTree(review.rows);
 */
function affectedTree(rows: readonly AccessRow[]): TreeNode {
  const root: TreeNode = { path: "/", name: "/", children: new Map(), rows: [] };
  for (const row of rows) {
    let node = root;
    let path = "";
    for (const seg of segments(row.subtree.path)) {
      path = `${path}/${seg}`;
      let next = node.children.get(seg);
      if (next === undefined) {
        next = { path, name: seg, children: new Map(), rows: [] };
        node.children.set(seg, next);
      }
      node = next;
    }
    node.rows.push(row);
  }
  return root;
}

const what = (r: AccessRow): string =>
  r.allOf === undefined
    ? r.capabilities.length <= 3
      ? r.capabilities.join(", ")
      : `${r.capabilities.length} capabilities`
    : `all of ${r.allOf.role}`;

const sign = (r: AccessRow): string => (isGain(r) ? "+" : "−");

// Mermaid labels are quoted strings: a quote or a character mermaid reads as markup becomes an
// entity code, so a name cannot end the label.
const label = (s: string): string => `"${s.replace(/[\\"#<>`|{}[\]]/g, (c) => `#${c.charCodeAt(0)};`)}"`;

/**
 * The review's changes as a mermaid flowchart (GitHub renders it): the affected subtree of groups
 * from the root, and at each group the identities that gain (solid edge, `+`) or lose (dotted, `−`)
 * access there through which role; risky edges are red and marked ⚠️. Undefined when there is no
 * change or the picture would exceed `maxNodes` nodes.
 *
 * @example
 * const block = renderMermaid(review.rows);
 * if (block) comment.push("```mermaid", block, "```");
 */
export function renderMermaid(
  rows: readonly AccessRow[],
  options: { maxNodes?: number } = {},
): string | undefined {
  if (rows.length === 0) return undefined;
  const tree = affectedTree(rows);
  const lines = ["flowchart TD"];
  const risky: number[] = [];
  let edges = 0;
  let nodes = 0;
  const identities = new Map<string, string>();
  const visit = (node: TreeNode, id: string): void => {
    nodes++;
    lines.push(`  ${id}[${label(node.name === "/" ? "/ (root)" : node.name)}]`);
    for (const r of node.rows) {
      let iid = identities.get(r.identity.ref);
      if (iid === undefined) {
        iid = `i${identities.size}`;
        identities.set(r.identity.ref, iid);
        nodes++;
        lines.push(`  ${iid}([${label(r.identity.name)}])`);
      }
      const text = `${sign(r)} ${r.grant.role}: ${what(r)}${isRisky(r) ? ` ⚠️ ${r.risks.join(", ")}` : ""}`;
      lines.push(`  ${id} ${isGain(r) ? "-->" : "-.->"}|${label(text)}| ${iid}`);
      if (isRisky(r)) risky.push(edges);
      edges++;
    }
    let n = 0;
    for (const child of node.children.values()) {
      const cid = `${id}_${n++}`;
      lines.push(`  ${id} --- ${cid}`);
      edges++;
      visit(child, cid);
    }
  };
  visit(tree, "g");
  if (nodes > (options.maxNodes ?? DIAGRAM_MAX_NODES)) return undefined;
  if (risky.length > 0) lines.push(`  linkStyle ${risky.join(",")} stroke:#d00,stroke-width:3px`);
  return lines.join("\n");
}

/**
 * The same picture as an indented tree for a terminal: each group of the affected subtree, and
 * under it the identities that gain (`+`) or lose (`-`) access there.
 *
 * @example
 * console.log(renderTree(review.rows).join("\n"));
 */
export function renderTree(rows: readonly AccessRow[]): string[] {
  if (rows.length === 0) return [];
  const out: string[] = [];
  const visit = (node: TreeNode, depth: number): void => {
    const pad = "  ".repeat(depth);
    out.push(`${pad}${node.name === "/" ? "/" : `${node.name}/`}`);
    for (const r of node.rows)
      out.push(
        `${pad}  ${isGain(r) ? "+" : "-"} ${r.identity.name} ${r.grant.role}: ${what(r)}${isRisky(r) ? ` [${r.risks.join(", ")}]` : ""}`,
      );
    for (const child of node.children.values()) visit(child, depth + 1);
  };
  visit(affectedTree(rows), 0);
  return out;
}
