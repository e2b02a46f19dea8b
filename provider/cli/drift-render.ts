import type { AccessRow, ReviewJson, StackReview } from "../../review/index.js";
import { REVIEW_MARKER, renderMarkdown, renderText, reviewJson } from "../../review/index.js";
import type { DriftFinding, DriftReport } from "./drift-compare.js";

/**
 * The first line of drift's markdown: a scheduled job finds its one issue (or comment) by it.
 *
 * @example
 * body.startsWith(DRIFT_MARKER);
 */
export const DRIFT_MARKER = "<!-- pulumi-irv:drift -->";

/**
 * Version of drift's JSON; a change that removes or renames a field raises it.
 *
 * @example
 * if (json.schemaVersion !== DRIFT_JSON_VERSION) throw new Error("unknown drift JSON");
 */
export const DRIFT_JSON_VERSION = 1;

/**
 * What a drift report is about, besides its findings: the stack and the read that found them.
 *
 * @example
 * const about: DriftAbout = { stack: "prod", requests: 12, objects: 3000, subtrees: [team] };
 */
export interface DriftAbout {
  stack: string;
  /** API requests of the live read (pages). */
  requests: number;
  /** Objects the live read found. */
  objects: number;
  /** The managed subtrees listed whole. */
  subtrees: string[];
  /** Resources managed through an explicit provider (its own settings), which drift did not read. */
  notRead?: { urn: string; provider: string }[] | undefined;
}

/**
 * Drift's JSON (`--format json`): the findings, each with the ids of the access rows it causes, and
 * the access review of the code's side against the live side (the access review's own JSON).
 *
 * @example
 * const json = driftJson(report, about);
 * json.findings.filter((f) => f.risky).length;
 */
export interface DriftJson {
  schemaVersion: number;
  stack: string;
  summary: string;
  read: {
    requests: number;
    objects: number;
    subtrees: string[];
    notRead: { urn: string; provider: string }[];
  };
  findings: DriftFinding[];
  access: ReviewJson;
}

const stacksOf = (report: DriftReport, about: DriftAbout): StackReview[] => [
  { stack: about.stack, review: report.review },
];

/**
 * One sentence: how many objects changed, were deleted or are unmanaged, and how many risky.
 *
 * @example
 * driftSummary(report, about); // "Drift in stack prod: 1 changed, 1 unmanaged (1 risky)."
 */
export function driftSummary(report: DriftReport, about: DriftAbout): string {
  const count = (s: DriftFinding["state"]) => report.findings.filter((f) => f.state === s).length;
  const parts = (["changed", "deleted", "unmanaged"] as const)
    .map((s) => [s, count(s)] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  const notRead = about.notRead ?? [];
  const unread =
    notRead.length === 0
      ? ""
      : ` Not read: ${notRead.length} resource${notRead.length === 1 ? "" : "s"} managed through explicit providers (${[...new Set(notRead.map((r) => r.provider))].sort().join(", ")}), which drift cannot read with the stack's irv: settings.`;
  if (parts.length === 0)
    return `No drift in stack ${about.stack}: the organization is as the code left it.${unread}`;
  const risky = report.findings.filter((f) => f.risky).length;
  const lockOut =
    report.review.lockOut === undefined ? "" : " Lock-out: no owner-equivalent binding left at the root.";
  return `Drift in stack ${about.stack}: ${parts.join(", ")} (${risky} risky).${lockOut}${unread}`;
}

const show = (v: unknown): string => (v === undefined ? "(none)" : JSON.stringify(v));

const rowLine = (r: AccessRow): string =>
  `${r.state} ${r.identity.name} at ${r.subtree.path}: ${
    r.allOf === undefined ? r.capabilities.join(", ") : `all of ${r.allOf.role} (${r.allOf.count})`
  }${r.risks.length > 0 ? ` [${r.risks.join(", ")}]` : ""}`;

function rowsOf(report: DriftReport, f: DriftFinding): AccessRow[] {
  const ids = new Set(f.access);
  return report.review.rows.filter((r) => ids.has(r.id));
}

const objectOf = (f: DriftFinding): string =>
  `${f.className} ${f.name}${f.name === f.uid ? "" : ` (${f.uid})`}`;

/**
 * The report for a terminal: the summary, one block per finding (its fields, or what it is, and the
 * access it changes), then the access review of the code against the organization as it is.
 *
 * @example
 * console.log(renderDriftText(report, about));
 */
export function renderDriftText(report: DriftReport, about: DriftAbout): string {
  const lines = [
    driftSummary(report, about),
    `(read live: ${about.objects} objects in ${about.subtrees.length} managed subtrees, ${about.requests} requests)`,
  ];
  for (const f of report.findings) {
    lines.push("", `${f.state.padEnd(10)} ${objectOf(f)}${f.risky ? "  RISKY" : ""}`);
    if (f.detail !== undefined) lines.push(`           ${f.detail}`);
    for (const x of f.fields)
      lines.push(`           ${x.field}: ${show(x.code)} (code) → ${show(x.live)} (live)`);
    for (const r of rowsOf(report, f)) lines.push(`           access: ${rowLine(r)}`);
  }
  if (report.findings.length > 0)
    lines.push("", "Access as it is, against the code:", renderText(stacksOf(report, about)));
  return lines.join("\n");
}

const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/**
 * The report as one markdown document (an issue's body): the marker, the summary, a table of the
 * findings with their access, and the access review of the code against the organization as it is.
 *
 * @example
 * writeFileSync("drift.md", renderDriftMarkdown(report, about));
 */
export function renderDriftMarkdown(report: DriftReport, about: DriftAbout): string {
  const out = [DRIFT_MARKER, `### Drift: stack \`${about.stack}\``, "", driftSummary(report, about), ""];
  if (report.findings.length > 0) {
    out.push("| | Object | What | Access it changes |", "|---|---|---|---|");
    for (const f of report.findings) {
      const what =
        f.fields.length > 0
          ? f.fields
              .map((x) => `${code(x.field)}: ${code(show(x.code))} → ${code(show(x.live))}`)
              .join("<br>")
          : (f.detail ?? (f.state === "deleted" ? "deleted outside code" : "not in the stack"));
      const access = rowsOf(report, f).map(rowLine).join("<br>") || "none";
      out.push(
        `| ${f.risky ? "⚠️ " : ""}${f.state} | ${cell(`${f.className} ${code(f.name)}`)} | ${cell(what)} | ${cell(access)} |`,
      );
    }
    // The access review's own comment, without its marker: a job that updates review comments
    // must not take this document for one.
    const review = renderMarkdown(stacksOf(report, about)).replace(`${REVIEW_MARKER}\n`, "");
    out.push(
      "",
      "<details><summary>Access as it is, against the code</summary>",
      "",
      review,
      "",
      "</details>",
    );
  }
  out.push(
    "",
    `<sub>Read live: ${about.objects} objects in ${about.subtrees.length} managed subtrees, ${about.requests} requests. \`pulumi-irv drift\` writes no state.</sub>`,
  );
  return out.join("\n");
}

/**
 * The report as versioned JSON.
 *
 * @example
 * JSON.stringify(driftJson(report, about), null, 2);
 */
export function driftJson(report: DriftReport, about: DriftAbout): DriftJson {
  return {
    schemaVersion: DRIFT_JSON_VERSION,
    stack: about.stack,
    summary: driftSummary(report, about),
    read: {
      requests: about.requests,
      objects: about.objects,
      subtrees: about.subtrees,
      notRead: about.notRead ?? [],
    },
    findings: report.findings,
    access: reviewJson(stacksOf(report, about)),
  };
}
