import type { AccessReview } from "../access/index.js";
import { isGain, isRisky } from "../access/index.js";

/**
 * The review of one stack, as the renderers take it.
 *
 * @example
 * const s: StackReview = { stack: "dev", review: reviewAccess(before, after) };
 */
export interface StackReview {
  stack: string;
  review: AccessReview;
  /** What `--live` read: the bindings from outside the stack in the subtrees it touches. */
  live?: LiveSummary | undefined;
}

/**
 * The access from outside the stack that `--live` read, for the report.
 *
 * @example
 * const live: LiveSummary = { requests: 3, subtrees: [orgUid], outside: [] };
 */
export interface LiveSummary {
  /** List requests made (pages). */
  requests: number;
  /** The subtrees listed. */
  subtrees: string[];
  /** Each binding outside the stack: identity, role and group by name, and its uid. */
  outside: { uid: string; identity: string; role: string; group: string }[];
}

/**
 * The summary sentence of a review: how many identities gain access, how many of them riskily, how
 * many lose access, and a lock-out; "No access change." when nothing changes.
 *
 * @example
 * summarize(stacks); // "3 identities gain access, 1 risky. 1 identity loses access."
 */
export function summarize(stacks: readonly StackReview[]): string {
  const rows = stacks.flatMap((s) =>
    s.review.rows.map((r) => ({ ...r, key: `${s.stack}\n${r.identity.ref}` })),
  );
  const gaining = new Set(rows.filter(isGain).map((r) => r.key));
  const risky = new Set(rows.filter(isRisky).map((r) => r.key));
  const losing = new Set(rows.filter((r) => !isGain(r)).map((r) => r.key));
  const lockOuts = stacks.filter((s) => s.review.lockOut !== undefined).length;
  const identities = (n: number) => `${n} ${n === 1 ? "identity" : "identities"}`;
  const parts: string[] = [];
  if (gaining.size > 0)
    parts.push(
      `${identities(gaining.size)} ${gaining.size === 1 ? "gains" : "gain"} access, ${risky.size} risky.`,
    );
  if (losing.size > 0)
    parts.push(`${identities(losing.size)} ${losing.size === 1 ? "loses" : "lose"} access.`);
  if (lockOuts > 0)
    parts.push(
      `Lock-out: no owner-equivalent binding left at the root${stacks.length > 1 ? ` (${lockOuts} stacks)` : ""}.`,
    );
  return parts.length === 0 ? "No access change." : parts.join(" ");
}
