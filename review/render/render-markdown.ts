import type { AccessRow } from "../access/index.js";
import { isGain, isRisky } from "../access/index.js";
import { renderMermaid } from "./render-diagram.js";
import type { LiveSummary, StackReview } from "./stack-review.js";
import { summarize } from "./stack-review.js";

/**
 * The hidden marker that starts the review comment: CI finds the comment carrying it and updates
 * it instead of adding another.
 *
 * @example
 * const mine = comments.find((c) => c.body.includes(REVIEW_MARKER));
 */
export const REVIEW_MARKER = "<!-- pulumi-irv:access-review -->";

/**
 * GitHub refuses comments over 65 536 characters; a little room is left for the CI's own text.
 *
 * @example
 * renderMarkdown(stacks, { maxChars: DEFAULT_MAX_CHARS });
 */
export const DEFAULT_MAX_CHARS = 60_000;

const STATE_LABEL: Record<AccessRow["state"], string> = {
  gained: "➕ gained",
  "maybe-gained": "❔ maybe gained",
  lost: "➖ lost",
  "maybe-lost": "❔ maybe lost",
};

// A cell must not end the table row or start code spans of its own.
const cell = (s: string) =>
  s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/`/g, "'").replace(/\n/g, " ");
const code = (s: string) => `\`${cell(s)}\``;

// The identity's uid (or "(new)") and its matcher, in code spans.
const uidOf = (r: AccessRow) => (r.identity.uid === undefined ? "(new)" : code(r.identity.uid));
const matcherOf = (r: AccessRow) =>
  Object.entries(r.identity.matcher ?? {})
    .map(([k, v]) => `${k}: ${code(v)}`)
    .join(", ");

function identityCell(r: AccessRow): string {
  const who = `${code(r.identity.name)} ${uidOf(r)}`;
  const matcher = r.identity.matcher === undefined ? "" : `<br>${matcherOf(r)}`;
  const changed = r.matcherChanged === undefined ? "" : " (matcher changed)";
  return `${who}${changed}${matcher}`;
}

function grantCell(r: AccessRow): string {
  const g = r.grant;
  return `${code(g.binding)} → ${code(g.role)}${g.roleEdited ? " (edited)" : ""} on ${code(g.group)}${g.external ? " (outside the stack)" : ""}`;
}

function capabilitiesCell(r: AccessRow): string {
  return r.allOf === undefined
    ? r.capabilities.map(code).join(", ")
    : `all of ${code(r.allOf.role)} (${r.allOf.count})`;
}

function rowLine(r: AccessRow): string {
  const risk = r.risks.length === 0 ? "" : `⚠️ ${r.risks.join(", ")}`;
  return `| ${STATE_LABEL[r.state]} | ${identityCell(r)} | ${code(r.subtree.path)} | ${grantCell(r)} | ${capabilitiesCell(r)} | ${risk} | ${code(r.id)} |`;
}

function provenanceLine(r: AccessRow): string {
  const caps = r.findings.map((f) => `${f.capability} (${code(f.id)})`).join(", ");
  const matcher = r.identity.matcher === undefined ? "" : `; ${matcherOf(r)}`;
  return `- ${code(r.id)} **${cell(r.identity.name)}** (${uidOf(r)}${matcher}) ${r.state} on ${code(r.subtree.path)} through ${grantCell(r)}: ${caps}`;
}

const LIVE_CAP = 30;

// Who else holds access in the subtrees, from outside the stack: what a reviewer asks next.
function liveLines(live: LiveSummary): string[] {
  const head = `**Access from outside the stack** (read live: ${live.outside.length} bindings in ${live.subtrees.length} subtrees, ${live.requests} requests)${live.outside.length === 0 ? ": none." : ""}`;
  const shown = live.outside
    .slice(0, LIVE_CAP)
    .map((b) => `- ${code(b.identity)} → ${code(b.role)} on ${code(b.group)} (${code(b.uid)})`);
  const more =
    live.outside.length > LIVE_CAP
      ? [`- … and ${live.outside.length - LIVE_CAP} more (see \`--format json\`)`]
      : [];
  return live.outside.length === 0 ? [head] : [head, "", ...shown, ...more];
}

interface Shape {
  provenance: boolean;
  diagram: boolean;
  /** Rows left out, per stack (never a risky one). */
  dropped: ReadonlyMap<string, ReadonlySet<AccessRow>>;
}

function render(stacks: readonly StackReview[], shape: Shape): string {
  const out = [REVIEW_MARKER, "## Access review", "", `**${summarize(stacks)}**`];
  for (const { stack, review, live } of stacks) {
    out.push("", `### Stack ${code(stack)}`, "");
    if (live !== undefined) out.push(...liveLines(live), "");
    if (review.lockOut !== undefined)
      out.push(
        `> [!CAUTION]\n> **Lock-out** (${code(review.lockOut.id)}): after this change no binding at the root grants every capability of \`owner\` (removed: ${review.lockOut.removed.map(code).join(", ")}).`,
        "",
      );
    if (review.rows.length === 0) {
      out.push("No access change.");
      continue;
    }
    const dropped = shape.dropped.get(stack) ?? new Set();
    const rows = review.rows.filter((r) => !dropped.has(r));
    const diagram = shape.diagram ? renderMermaid(review.rows) : undefined;
    if (diagram !== undefined) out.push("```mermaid", diagram, "```", "");
    out.push(
      "| Change | Identity | Subtree | Grant | Capabilities | Risk | Row |",
      "|---|---|---|---|---|---|---|",
      ...rows.map(rowLine),
    );
    if (dropped.size > 0)
      out.push(
        "",
        `_${dropped.size} more non-risky rows not shown (size limit): run \`pulumi-irv access-review --format text\` for all._`,
      );
    if (shape.provenance)
      out.push(
        "",
        "<details><summary>Each capability of each row (and its per-capability finding id)</summary>",
        "",
        ...rows.map(provenanceLine),
        "",
        "</details>",
      );
  }
  return out.join("\n");
}

/**
 * The review as one pull-request comment: the hidden {@link REVIEW_MARKER}, a summary sentence, per
 * stack a mermaid diagram of the affected subtree (when small enough), a table and the collapsible
 * per-capability detail; "No access change." when there is none. Above `maxChars` it drops the
 * diagram and the detail first, then non-risky rows (losses first, then the last
 * gains), never a risky row nor the lock-out.
 *
 * @example
 * await postComment(renderMarkdown([{ stack: "dev", review }]));
 */
export function renderMarkdown(
  stacks: readonly StackReview[],
  options: { maxChars?: number | undefined } = {},
): string {
  const max = options.maxChars ?? DEFAULT_MAX_CHARS;
  const full = render(stacks, { provenance: true, diagram: true, dropped: new Map() });
  if (full.length <= max) return full;
  const dropped = new Map(stacks.map((s) => [s.stack, new Set<AccessRow>()]));
  let text = render(stacks, { provenance: false, diagram: false, dropped });
  // Candidates to drop, least important first: losses, then plain gains from the end.
  const candidates = stacks.flatMap((s) =>
    [...s.review.rows]
      .filter((r) => !isRisky(r))
      .sort((x, y) => Number(isGain(x)) - Number(isGain(y)))
      .map((r) => ({ stack: s.stack, row: r })),
  );
  // Drop by the rows' own lengths (one render, not one per row); the notes saying how many rows
  // are left out take the room kept here.
  let excess = text.length - max + 200 * stacks.length;
  for (const { stack, row } of candidates) {
    if (excess <= 0) break;
    dropped.get(stack)?.add(row);
    excess -= rowLine(row).length + 1;
  }
  text = render(stacks, { provenance: false, diagram: false, dropped });
  return text;
}
