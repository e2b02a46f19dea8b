import { createRequire } from "node:module";
import { z } from "zod";
import type { AccessReview, AccessRow } from "./access-diff.js";
import { isGain, isRisky } from "./access-diff.js";

const Day = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

const RowId = z.string().regex(/^a[gr]-[0-9a-f]{16}$/, { message: "is not a row id (ag-<16 hex>)" });

/**
 * One entry of `access-approvals.yaml`: what it covers — review rows by id (`rows`), or one grant
 * by `identity` (name or uid), `group` (path such as `/platform`, or uid) and `role` (name or uid),
 * or (deprecated, for one release) per-capability finding ids (`findings`) — who approved it, until
 * when (a date: the end of that day UTC, or a time), and why.
 *
 * @example
 * Approval.parse({ identity: "payments-ci", group: "/", role: "owner", approvedBy: "alice", until: "2026-12-31" });
 */
export const Approval = z
  .object({
    rows: z.array(RowId).min(1).optional(),
    identity: z.string().min(1).optional(),
    group: z.string().min(1).optional(),
    role: z.string().min(1).optional(),
    findings: z
      .array(z.string().regex(/^ar-[0-9a-f]{16}$/, { message: "is not a finding id (ar-<16 hex>)" }))
      .min(1)
      .optional(),
    approvedBy: z.string().min(1, { message: "is required: who approved" }),
    until: Day,
    reason: z.string().optional(),
  })
  .superRefine((a, ctx) => {
    const grant = [a.identity, a.group, a.role].filter((v) => v !== undefined).length;
    const forms = Number(a.rows !== undefined) + Number(grant > 0) + Number(a.findings !== undefined);
    if (forms === 0)
      ctx.addIssue({
        code: "custom",
        path: ["rows"],
        message: "is missing: name rows by id (rows: [ag-…]), or a grant by identity, group and role",
      });
    else if (forms > 1)
      ctx.addIssue({
        code: "custom",
        path: ["rows"],
        message: "goes with only one form per entry: rows, a grant (identity, group, role) or findings",
      });
    else if (grant > 0 && grant < 3)
      for (const k of ["identity", "group", "role"] as const)
        if (a[k] === undefined)
          ctx.addIssue({
            code: "custom",
            path: [k],
            message: "is required with a grant (identity, group and role)",
          });
  });
/**
 * @see Approval
 * @example
 * const a: Approval = { rows: ["ag-5c1e0f9a2b7d4e36"], approvedBy: "alice", until: "2026-12-31" };
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
    data = parseYaml(text) ?? {};
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
 * A change the gate stops: one review row (or the lock-out) that no approval valid at `now` covers,
 * with its row id, the grant that would approve it, and its per-capability finding ids.
 *
 * @example
 * for (const u of unapproved) console.log(u.what, u.row);
 */
export interface UnapprovedChange {
  /** One line saying what it is: identity, change, capabilities, subtree and risk classes. */
  what: string;
  /** The row id (the lock-out's id for a lock-out). */
  row: string;
  /** The grant, as an approval entry would name it (absent for a lock-out). */
  grant?: { identity: string; group: string; role: string } | undefined;
  /** The row's per-capability finding ids (deprecated form). */
  ids: string[];
  /** The end dates of approvals that covered this row and expired. */
  expired: string[];
}

const endOf = (until: string): number =>
  /^\d{4}-\d{2}-\d{2}$/.test(until) ? Date.parse(`${until}T23:59:59.999Z`) : Date.parse(until);

/**
 * Whether an approval entry covers a row: by its id, by its grant (identity name or uid, the
 * binding's group or the row's subtree by path or uid, role name or uid), or — deprecated — by every
 * one of its per-capability finding ids.
 *
 * @example
 * approves({ identity: "ci", group: "/", role: "owner", approvedBy: "a", until: "2999-01-01" }, row);
 */
export function approves(a: Approval, row: AccessRow): boolean {
  if (a.rows !== undefined) return a.rows.includes(row.id);
  if (a.findings !== undefined) return row.findings.every((f) => a.findings?.includes(f.id));
  const g = row.grant;
  return (
    (a.identity === row.identity.name || a.identity === row.identity.uid) &&
    (a.group === g.group ||
      a.group === g.groupUid ||
      a.group === row.subtree.path ||
      a.group === row.subtree.uid) &&
    (a.role === g.role || a.role === g.roleUid)
  );
}

/**
 * One line per approval entry of the deprecated form (per-capability `findings`), saying what to
 * write instead; empty when there is none.
 *
 * @example
 * for (const line of deprecations(approvals, "access-approvals.yaml")) console.warn(line);
 */
export function deprecations(approvals: readonly Approval[], source = "access-approvals.yaml"): string[] {
  const n = approvals.filter((a) => a.findings !== undefined).length;
  return n === 0
    ? []
    : [
        `${source}: ${n} ${n === 1 ? "entry names" : "entries name"} per-capability finding ids (findings: [ar-…]), deprecated and read for one more release: name the row (rows: [ag-…]) or the grant (identity, group, role) instead.`,
      ];
}

/**
 * The changes of a review that a gate stops: risky rows (`failOn: "risky"`, with `maybe-gained`
 * counting as gained) or every gained row (`"any"`), and a lock-out, each unless an approval valid at
 * `now` covers it (see {@link approves}).
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
  const valid = approvals.filter((a) => endOf(a.until) >= now);
  const expired = approvals.filter((a) => endOf(a.until) < now);
  const out: UnapprovedChange[] = [];
  const lock = review.lockOut;
  const namesLock = (a: Approval) => a.rows?.includes(lock?.id ?? "") || a.findings?.includes(lock?.id ?? "");
  if (lock !== undefined && !valid.some(namesLock))
    out.push({
      what: `lock-out: no owner-equivalent binding left at the root (removed: ${lock.removed.join(", ")})`,
      row: lock.id,
      ids: [lock.id],
      expired: [...new Set(expired.filter(namesLock).map((a) => a.until))],
    });
  for (const row of review.rows) {
    if (!(options.failOn === "any" ? isGain(row) : isRisky(row))) continue;
    if (valid.some((a) => approves(a, row))) continue;
    const caps =
      row.allOf === undefined ? row.capabilities.join(", ") : `all of ${row.allOf.role} (${row.allOf.count})`;
    out.push({
      what: `${row.identity.name} ${row.state} ${caps} on ${row.subtree.path} through ${row.grant.binding} → ${row.grant.role}${row.risks.length > 0 ? ` [${row.risks.join(", ")}]` : ""}`,
      row: row.id,
      grant: { identity: row.identity.name, group: row.grant.group, role: row.grant.role },
      ids: row.findings.map((f) => f.id),
      expired: [...new Set(expired.filter((a) => approves(a, row)).map((a) => a.until))],
    });
  }
  return out;
}

/**
 * The approval entry (YAML, one line) that would let a blocked change through, for messages.
 *
 * @example
 * `add to access-approvals.yaml: ${approvalHint(u)}`;
 */
export function approvalHint(u: UnapprovedChange): string {
  const what =
    u.grant === undefined
      ? `rows: [${u.row}]`
      : `identity: ${JSON.stringify(u.grant.identity)}, group: ${JSON.stringify(u.grant.group)}, role: ${JSON.stringify(u.grant.role)}`;
  return `- { ${what}, approvedBy: …, until: YYYY-MM-DD }`;
}

// Loaded on the first approvals file, not with the sdk: every program and every provider process
// the engine starts imports the sdk, and only the access review reads approvals (yaml's ~70 modules
// were ~35 ms of each process's start, issue 40).
let yaml: typeof import("yaml") | undefined;
function parseYaml(text: string): unknown {
  yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yaml.parse(text);
}
