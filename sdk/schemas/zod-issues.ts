import type { z } from "zod";

/**
 * One zod issue as a field and a message: the JSON path joined with dots (`root` for the value
 * itself), and "is required" for a missing value rather than zod's type wording.
 *
 * @example
 * const line: IssueLine = { field: "claimMatch.subject", message: "is required" };
 */
export interface IssueLine {
  field: string;
  message: string;
}

/**
 * Turns zod issues into field/message lines: the one formatter of the client, the emulator and the
 * fixture loader, so all of them name fields the same way.
 *
 * @example
 * const r = GroupCreate.safeParse(body);
 * if (!r.success) zodIssueLines(r.error, "body"); // [{ field: "name", message: "is required" }]
 */
export function zodIssueLines(error: z.ZodError, root: string): IssueLine[] {
  return error.issues.map((issue) => ({
    field: issue.path.length === 0 ? root : issue.path.map(String).join("."),
    message: /received undefined$/.test(issue.message) ? "is required" : issue.message,
  }));
}

/**
 * The lines of {@link zodIssueLines} as `field: message` texts.
 *
 * @example
 * formatZodIssues(r.error, "(body)"); // ["name: is required"]
 */
export function formatZodIssues(error: z.ZodError, root: string): string[] {
  return zodIssueLines(error, root).map((l) => `${l.field}: ${l.message}`);
}
