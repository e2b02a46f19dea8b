import type { FieldViolation } from "pulumi-irv/sdk";
import { zodIssueLines } from "pulumi-irv/sdk";
import type { z } from "zod";
import { invalidArgument } from "../core/index.js";

/**
 * Turns zod issues into BadRequest field violations (field = the JSON path, `body` for the body
 * itself) and throws them as one code 3 error. `hints` add words to a field's description (the
 * group name pattern, which the spec wants named in the violation whatever went wrong).
 *
 * @example
 * const parsed = GroupCreate.safeParse(body);
 * if (!parsed.success) throwZodViolations(parsed.error, { name: "must match the pattern …" });
 */
export function throwZodViolations(error: z.ZodError, hints: Readonly<Record<string, string>> = {}): never {
  const violations: FieldViolation[] = zodIssueLines(error, "body").map(({ field, message }, i) => {
    let description = message;
    if (field === "body" && error.issues[i]?.code === "invalid_type") description = "must be a JSON object";
    const hint = hints[field];
    if (hint !== undefined && !description.includes(hint)) description = `${description}; ${hint}`;
    return { field, description };
  });
  throw invalidArgument(violations);
}

/**
 * Code 3 for a zod error of a nested value, its fields named under `prefix`
 * (`customOverlay.environment`).
 *
 * @example
 * if (!r.success) throwNestedZodViolations(r.error, "sync_config");
 */
export function throwNestedZodViolations(error: z.ZodError, prefix: string): never {
  throw invalidArgument(
    zodIssueLines(error, "").map(({ field, message }) => ({
      field: field === "" ? prefix : `${prefix}.${field}`,
      description: message,
    })),
  );
}

/**
 * The body as a plain object, or code 3 when it is not one (an array, a string, nothing).
 *
 * @example
 * const fields = requireObject(request.body);
 */
export function requireObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw invalidArgument([{ field: "body", description: "must be a JSON object" }]);
  }
  return body as Record<string, unknown>;
}
