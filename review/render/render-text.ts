import type { AccessRow } from "../access/index.js";
import { renderTree } from "./render-diagram.js";
import type { StackReview } from "./stack-review.js";
import { summarize } from "./stack-review.js";

/**
 * The width the text report fits: a terminal of 120 columns shows every line whole.
 *
 * @example
 * renderText(stacks).split("\n").every((l) => l.length <= TEXT_WIDTH); // true
 */
export const TEXT_WIDTH = 120;

/**
 * How a row names its identity in full: name, uid (or "new") and matcher — what the JSON and the
 * markdown comment's details say; the text table names it by name alone.
 *
 * @example
 * identityLabel(row); // "ci (aaaa…/0000000000000003) issuer=https://… subject=repo:acme/app:…"
 */
export function identityLabel(row: AccessRow): string {
  const m = row.identity.matcher;
  const matcher =
    m === undefined
      ? ""
      : ` ${Object.entries(m)
          .map(([k, v]) => `${k}=${v}`)
          .join(" ")}`;
  return `${row.identity.name} (${row.identity.uid ?? "new"})${matcher}`;
}

// The widest a name or a path gets in its column; longer ones are cut with "…" (the JSON has them
// whole): a path keeps its end, the group that is granted.
const IDENTITY_MAX = 24;
const SUBTREE_MAX = 30;
const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const cutStart = (s: string, max: number) => (s.length <= max ? s : `…${s.slice(s.length - max + 1)}`);

// `text` in lines of at most `width` characters, broken after a ", " or a space (a longer word is
// broken where it must); the first line starts at `first`, the others at `indent`.
function wrap(text: string, width: number, indent: string, first = indent): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/(?<=[ ,])(?=\S)/)) {
    if (!empty && line.length + word.trimEnd().length > width) {
      lines.push(line.trimEnd());
      line = indent;
      empty = true;
    }
    let w = word;
    while (line.length + w.trimEnd().length > width) {
      const room = Math.max(1, width - line.length);
      lines.push(line + w.slice(0, room));
      line = indent;
      w = w.slice(room);
    }
    line += w;
    empty = false;
  }
  lines.push(line.trimEnd());
  return lines;
}

// Any other line (summary, tree, live bindings) wrapped at the width, its continuation indented.
const fit = (line: string): string[] => {
  if (line.length <= TEXT_WIDTH) return [line];
  const indent = `${/^ */.exec(line)?.[0] ?? ""}    `;
  return wrap(line.trimStart(), TEXT_WIDTH, indent, indent.slice(4));
};

/**
 * The review as a plain-text report for a terminal, every line at most {@link TEXT_WIDTH} columns:
 * the affected tree, then per row one line (row id, state, identity by name, subtree, risks) and,
 * below it, the grant and the capabilities; then the lock-out. Uids and matchers are in
 * `--format json` and the markdown comment.
 *
 * @example
 * console.log(renderText([{ stack: "dev", review }]));
 */
export function renderText(stacks: readonly StackReview[]): string {
  const lines = [summarize(stacks)];
  for (const { stack, review, live } of stacks) {
    lines.push("", `stack ${stack}`);
    if (live !== undefined) {
      lines.push(
        `  outside the stack (read live: ${live.outside.length} bindings in ${live.subtrees.length} subtrees, ${live.requests} requests)`,
      );
      for (const b of live.outside) lines.push(`    ${b.identity} -> ${b.role} on ${b.group} (${b.uid})`);
    }
    if (review.lockOut !== undefined)
      lines.push(
        `  LOCK-OUT ${review.lockOut.id}: no owner-equivalent binding left at the root (removed: ${review.lockOut.removed.join(", ")})`,
      );
    if (review.rows.length === 0) {
      if (review.lockOut === undefined) lines.push("  no access change");
      continue;
    }
    lines.push(...renderTree(review.rows).map((l) => `  ${l}`), "");
    const table = [
      ["ROW", "STATE", "IDENTITY", "SUBTREE"],
      ...review.rows.map((r) => [
        r.id,
        r.state,
        cut(`${r.identity.name}${r.identity.uid === undefined ? " (new)" : ""}`, IDENTITY_MAX),
        cutStart(r.subtree.path, SUBTREE_MAX),
      ]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    const lead = (row: string[]) => `  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")}  `;
    const detail = " ".repeat(2 + widths[0]! + 2);
    lines.push(`${lead(table[0]!)}RISK`);
    review.rows.forEach((r, i) => {
      const head = lead(table[i + 1]!);
      lines.push(...wrap(r.risks.join(", ") || "-", TEXT_WIDTH, " ".repeat(head.length), head));
      const grant = `${r.grant.binding} -> ${r.grant.role}${r.grant.roleEdited ? " (edited)" : ""} on ${r.grant.group}${r.grant.external ? " (outside the stack)" : ""}`;
      const what =
        r.allOf === undefined ? r.capabilities.join(", ") : `all of ${r.allOf.role} (${r.allOf.count})`;
      lines.push(...wrap(`${grant}: ${what}`, TEXT_WIDTH, `${detail}  `, detail));
    });
  }
  return lines.flatMap(fit).join("\n");
}
