import type { FieldViolation } from "pulumi-irv/sdk";
import { z } from "zod";
import { findInJson, isContainer, isWellFormed } from "../core/index.js";

/**
 * Limits of one free-form JSON field (the typed maps whose keys the caller chooses, such as claims).
 *
 * @example
 * freeFormViolations("settings", value, { ...FREE_FORM_LIMITS, maxDepth: 4 });
 */
export interface FreeFormLimits {
  /** How deep containers (objects, arrays) may nest inside the field: `{"a":{"b":1}}` is 2. */
  maxDepth: number;
  /** Keys of one object, items of one array. */
  maxEntries: number;
  /** Size of the field's JSON text, bytes of UTF-8. */
  maxBytes: number;
}

/**
 * The limits of every free-form field (recorded in docs/contract-decisions.md).
 *
 * @example
 * FREE_FORM_LIMITS.maxDepth; // 8
 */
export const FREE_FORM_LIMITS: Readonly<FreeFormLimits> = {
  maxDepth: 8,
  maxEntries: 100,
  maxBytes: 16 * 1024,
};

// Names that every plain object answers to: a key of this name would be confused with the inherited
// member wherever code looks a key up (`obj[key]`), so free-form data may not use them.
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));

const join = (field: string, path: string) =>
  field === "" ? path : path === "" ? field : `${field}.${path}`;

/**
 * Why `key` cannot be a key of free-form data, or undefined when it can: a reserved name (a member
 * of `Object.prototype`: `constructor`, `__proto__`, `toString`…) or not well-formed Unicode.
 *
 * @example
 * freeFormKeyProblem("issuer");   // undefined
 * freeFormKeyProblem("toString"); // "is a reserved name (a member of every JSON object): choose another"
 */
export function freeFormKeyProblem(key: string): string | undefined {
  if (RESERVED.has(key)) return "is a reserved name (a member of every JSON object): choose another";
  if (!isWellFormed(key)) return "is not well-formed Unicode (it holds a lone surrogate)";
  return undefined;
}

/**
 * Checks one free-form value against `limits`: nesting depth, entries per container, JSON size,
 * keys (see {@link freeFormKeyProblem}) and strings (well-formed Unicode). Violations name the JSON
 * path below `field`. Walks without recursion, so any parsed value is safe to check.
 *
 * @example
 * freeFormViolations("settings", { a: { b: { c: 1 } } }, { ...FREE_FORM_LIMITS, maxDepth: 2 });
 * // [{ field: "settings.a.b", description: "is nested more than 2 levels deep inside settings" }]
 */
export function freeFormViolations(
  field: string,
  value: unknown,
  limits: Readonly<FreeFormLimits> = FREE_FORM_LIMITS,
): FieldViolation[] {
  const found = findInJson<FieldViolation>(value, (n) => {
    const at = () => join(field, n.path());
    if (typeof n.key === "string") {
      const problem = freeFormKeyProblem(n.key);
      if (problem !== undefined) return { field: at(), description: `key ${problem}` };
    }
    if (typeof n.value === "string" && !isWellFormed(n.value)) {
      return { field: at(), description: "is not well-formed Unicode (it holds a lone surrogate)" };
    }
    if (!isContainer(n.value)) return undefined;
    if (n.depth + 1 > limits.maxDepth) {
      return {
        field: at(),
        description: `is nested more than ${limits.maxDepth} levels deep${field === "" ? "" : ` inside ${field}`}`,
      };
    }
    const entries = Array.isArray(n.value) ? n.value.length : Object.keys(n.value).length;
    if (entries > limits.maxEntries) {
      return {
        field: at(),
        description: `has ${entries} entries, more than the limit of ${limits.maxEntries}`,
      };
    }
    return undefined;
  });
  if (found !== undefined) return [found];
  // Depth is bounded now, so the (recursive) stringify is safe.
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? "");
  if (bytes > limits.maxBytes) {
    return [{ field, description: `is ${bytes} bytes of JSON, more than the limit of ${limits.maxBytes}` }];
  }
  return [];
}

/**
 * A zod schema of a typed free-form field (a claims map, a clientIds map): any JSON within `limits`,
 * each violation an issue at its path. Refine a narrower schema with the same rule by
 * `schema.superRefine(freeFormRefinement(limits))`.
 *
 * @example
 * const Claims = z.object({ claims: freeForm() });
 * Claims.safeParse({ claims: { toString: "x" } }).success; // false
 */
export function freeForm(limits: Readonly<FreeFormLimits> = FREE_FORM_LIMITS): z.ZodType<unknown> {
  return z.unknown().superRefine(freeFormRefinement(limits));
}

/**
 * The check of {@link freeForm}, to refine any schema with.
 *
 * @example
 * const ClientIds = z.record(z.string(), z.string()).superRefine(freeFormRefinement());
 */
export function freeFormRefinement(
  limits: Readonly<FreeFormLimits> = FREE_FORM_LIMITS,
): (value: unknown, ctx: z.RefinementCtx) => void {
  return (value, ctx) => {
    for (const v of freeFormViolations("", value, limits)) {
      ctx.addIssue({
        code: "custom",
        message: v.description,
        path: v.field === "" ? [] : v.field.split("."),
      });
    }
  };
}
