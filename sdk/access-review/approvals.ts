import { parse } from "yaml";
import { z } from "zod";
import type { AccessReview } from "./access-diff.js";
import { isGain, isRisky } from "./access-diff.js";

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
 * A change the gate stops: one review row (or the lock-out) with the ids of its findings that no
 * approval valid at `now` covers.
 *
 * @example
 * for (const u of unapproved) console.log(u.what, u.ids.join(" "));
 */
export interface UnapprovedChange {
  /** One line saying what it is: identity, change, capabilities, subtree and risk classes. */
  what: string;
  ids: string[];
  /** The end dates of approvals that covered some of these ids and expired. */
  expired: string[];
}

const endOf = (until: string): number =>
  /^\d{4}-\d{2}-\d{2}$/.test(until) ? Date.parse(`${until}T23:59:59.999Z`) : Date.parse(until);

/**
 * The changes of a review that a gate stops: risky rows (`failOn: "risky"`, with `maybe-gained`
 * counting as gained) or every gained row (`"any"`), and a lock-out, each with the finding ids no
 * approval valid at `now` names; a row whose every finding is approved is let through.
 *
 * @example
 * const blocked = unapprovedChanges(review, approvals, { failOn: "risky", now: new Date() });
 */
export function unapprovedChanges(
  review: AccessReview,
  approvals: readonly Approval[],
  options: { failOn: "risky" | "any"; now: Date },
): UnapprovedChange[] {
  const now = options.now.getTime();
  const valid = new Set(approvals.filter((a) => endOf(a.until) >= now).flatMap((a) => a.findings));
  const expiredFor = (ids: string[]) => [
    ...new Set(
      approvals
        .filter((a) => endOf(a.until) < now && a.findings.some((f) => ids.includes(f)))
        .map((a) => a.until),
    ),
  ];
  const out: UnapprovedChange[] = [];
  const lock = review.lockOut;
  if (lock !== undefined && !valid.has(lock.id))
    out.push({
      what: `lock-out: no owner-equivalent binding left at the root (removed: ${lock.removed.join(", ")})`,
      ids: [lock.id],
      expired: expiredFor([lock.id]),
    });
  for (const row of review.rows) {
    if (!(options.failOn === "any" ? isGain(row) : isRisky(row))) continue;
    const open = row.findings.filter((f) => !valid.has(f.id));
    if (open.length === 0) continue;
    const ids = open.map((f) => f.id);
    out.push({
      what: `${row.identity.name} ${row.state} ${open.map((f) => f.capability).join(", ")} on ${row.subtree.path}${row.risks.length > 0 ? ` [${row.risks.join(", ")}]` : ""}`,
      ids,
      expired: expiredFor(ids),
    });
  }
  return out;
}
