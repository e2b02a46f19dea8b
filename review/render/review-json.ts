import type { AccessEntry, AccessRow, LockOut } from "../access/index.js";
import type { LiveSummary, StackReview } from "./stack-review.js";
import { summarize } from "./stack-review.js";

/**
 * The version of the JSON document `--format json` prints. It changes only when a field changes
 * meaning or goes away; new fields may appear in the same version.
 *
 * @example
 * if (doc.schemaVersion !== REVIEW_JSON_VERSION) throw new Error("unknown review format");
 */
export const REVIEW_JSON_VERSION = 1;

/**
 * The JSON document of a review: per stack, the effective access before and after, the rows of
 * the difference (with finding ids, provenance and risk classes) and a lock-out.
 *
 * @example
 * const doc: ReviewJson = JSON.parse(stdout);
 * doc.stacks[0]?.diff.filter((r) => r.risks.length > 0);
 */
export interface ReviewJson {
  schemaVersion: typeof REVIEW_JSON_VERSION;
  summary: string;
  stacks: {
    stack: string;
    before: AccessEntry[];
    after: AccessEntry[];
    diff: AccessRow[];
    lockOut: LockOut | null;
    /** With `--live`: the bindings from outside the stack and the requests made. */
    live?: LiveSummary | undefined;
  }[];
}

/**
 * Builds the JSON document of a review.
 *
 * @example
 * console.log(JSON.stringify(reviewJson([{ stack: "dev", review }]), null, 2));
 */
export function reviewJson(stacks: readonly StackReview[]): ReviewJson {
  return {
    schemaVersion: REVIEW_JSON_VERSION,
    summary: summarize(stacks),
    stacks: stacks.map(({ stack, review, live }) => ({
      stack,
      before: review.before,
      after: review.after,
      diff: review.rows,
      lockOut: review.lockOut ?? null,
      ...(live === undefined ? {} : { live }),
    })),
  };
}
