import { parse } from "yaml";
import { z } from "zod";
import type { AccessReview } from "./access-diff.js";
import { isRisky } from "./access-diff.js";

const Day = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/**
 * One entry of `access-approvals.yaml`: the findings it covers (ids printed by the review), who
 * approved them, until when (a date: the end of that day UTC, or a time), and why.
 *
 * @example
 * Approval.parse({ findings: ["ar-5c1e0f9a2b7d4e36"], approvedBy: "alice", until: "2026-12-31" });
 */
export const Approval = z.object({
  findings: z
    .array(z.string().regex(/^ar-[0-9a-f]{16}$/, { message: "is not a finding id (ar-<16 hex>)" }))
    .min(1),
  approvedBy: z.string().min(1, { message: "is required: who approved" }),
  until: Day,
  reason: z.string().optional(),
});
/**
 * @see Approval
 * @example
 * const a: Approval = { findings: ["ar-5c1e0f9a2b7d4e36"], approvedBy: "alice", until: "2026-12-31" };
 */
export type Approval = z.infer<typeof Approval>;

/**
 * The whole approvals file: `approvals:` followed by a list of {@link Approval}.
 *
 * @example
 * const file = ApprovalsFile.parse({ approvals: [] });
 */
export const ApprovalsFile = z.object({ approvals: z.array(Approval).default([]) });

/**
 * Reads the text of `access-approvals.yaml`; an invalid file is one error naming the entry and the
 * field (an empty file approves nothing).
 *
 * @example
 * const approvals = parseApprovals(readFileSync("access-approvals.yaml", "utf8"));
 */
export function parseApprovals(text: string, source = "access-approvals.yaml"): Approval[] {
  let data: unknown;
  try {
    data = parse(text) ?? {};
  } catch (err) {
    throw new Error(`${source} is not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = ApprovalsFile.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${source}: ${issue?.path.join(".") || "(top level)"} ${issue?.message ?? "is invalid"}`);
  }
  return parsed.data.approvals;
}

/**
 * A finding the gate stops: not covered by an approval valid at `now`.
 *
 * @example
 * for (const f of unapproved) console.log(f.id, f.what, f.expired ? `(approval expired ${f.expired})` : "");
 */
export interface UnapprovedFinding {
  id: string;
  /** One line saying what it is: identity, subtree, capability and risk classes. */
  what: string;
  /** The end of an approval that covered it and expired. */
  expired?: string | undefined;
}

const endOf = (until: string): number =>
  /^\d{4}-\d{2}-\d{2}$/.test(until) ? Date.parse(`${until}T23:59:59.999Z`) : Date.parse(until);

/**
 * The findings of a review that a gate stops: those of risky rows (`failOn: "risky"`, with
 * `maybe-gained` counting as gained) or of every gained row (`"any"`), and a lock-out, each unless an
 * approval valid at `now` names its id.
 *
 * @example
 * const blocked = unapprovedFindings(review, approvals, { failOn: "risky", now: new Date() });
 */
export function unapprovedFindings(
  review: AccessReview,
  approvals: readonly Approval[],
  options: { failOn: "risky" | "any"; now: Date },
): UnapprovedFinding[] {
  const now = options.now.getTime();
  const valid = new Set(approvals.filter((a) => endOf(a.until) >= now).flatMap((a) => a.findings));
  const expiredOf = (id: string) =>
    approvals.find((a) => a.findings.includes(id) && endOf(a.until) < now)?.until;
  const out: UnapprovedFinding[] = [];
  if (review.lockOut !== undefined && !valid.has(review.lockOut.id))
    out.push({
      id: review.lockOut.id,
      what: `lock-out: no owner-equivalent binding left at the root (removed: ${review.lockOut.removed.join(", ")})`,
      expired: expiredOf(review.lockOut.id),
    });
  for (const row of review.rows) {
    if (!(options.failOn === "any" ? row.state === "gained" || row.state === "maybe-gained" : isRisky(row)))
      continue;
    for (const f of row.findings)
      if (!valid.has(f.id))
        out.push({
          id: f.id,
          what: `${row.identity.name} ${row.state} ${f.capability} on ${row.subtree.path}${row.risks.length > 0 ? ` [${row.risks.join(", ")}]` : ""}`,
          expired: expiredOf(f.id),
        });
  }
  return out;
}
