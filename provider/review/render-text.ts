import type { AccessRow } from "../../sdk/index.js";
import { renderTree } from "./render-diagram.js";
import type { StackReview } from "./stack-review.js";
import { summarize } from "./stack-review.js";

/**
 * How a row names its identity: name, uid (or "new") and matcher.
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

/**
 * The review as a plain-text table for a terminal: one line per row, then the lock-out.
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
      ["ROW", "STATE", "IDENTITY", "SUBTREE", "GRANT", "CAPABILITIES", "RISK"],
      ...review.rows.map((r) => [
        r.id,
        r.state,
        identityLabel(r),
        r.subtree.path,
        `${r.grant.binding} -> ${r.grant.role}${r.grant.roleEdited ? " (edited)" : ""} on ${r.grant.group}${r.grant.external ? " (outside the stack)" : ""}`,
        r.allOf === undefined ? r.capabilities.join(",") : `all of ${r.allOf.role} (${r.allOf.count})`,
        r.risks.join(",") || "-",
      ]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    for (const row of table)
      lines.push(
        `  ${row
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join("  ")
          .trimEnd()}`,
      );
  }
  return lines.join("\n");
}
