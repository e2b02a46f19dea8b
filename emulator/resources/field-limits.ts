import type { FieldViolation } from "pulumi-irv/sdk";
import { z } from "zod";
import { findInJson, invalidArgument, isContainer, isWellFormed } from "../core/index.js";

/**
 * Limits of one free-form JSON field (a loose kind's extra fields; typed maps such as claims).
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

/**
 * The limits of a loose resource as a whole (its free-form fields besides `name` and `description`).
 *
 * @example
 * LOOSE_RESOURCE_LIMITS.maxFields; // 32
 */
export const LOOSE_RESOURCE_LIMITS = {
  /** Free-form fields per resource. */
  maxFields: 32,
  /** Length of a field name, UTF-16 code units. */
  maxNameLength: 64,
  /** The resource's JSON text, bytes of UTF-8. */
  maxBytes: 64 * 1024,
  field: FREE_FORM_LIMITS,
} as const;

// Names that every plain object answers to: a key of this name would be confused with the inherited
// member wherever code looks a key up (`obj[key]`), so free-form data may not use them.
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));
// A loose resource's own typed fields and those the service sets: not free-form.
const NOT_FREE_FORM = new Set(["name", "description", "uid", "createTime", "updateTime"]);

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
 * The violations of a loose resource's fields ({@link LOOSE_RESOURCE_LIMITS}): how many free-form
 * fields, each field's name and value ({@link freeFormViolations}), and the total size. `name`,
 * `description` and the service's fields are not free-form and are skipped.
 *
 * @example
 * looseFieldViolations({ name: "github", toString: 1 });
 * // [{ field: "toString", description: "is a reserved name (a member of every JSON object): choose another" }]
 */
export function looseFieldViolations(fields: Record<string, unknown>): FieldViolation[] {
  const limits = LOOSE_RESOURCE_LIMITS;
  const free = Object.keys(fields).filter((k) => !NOT_FREE_FORM.has(k));
  const violations: FieldViolation[] = [];
  if (free.length > limits.maxFields) {
    violations.push({
      field: "body",
      description: `has ${free.length} fields besides name and description, more than the limit of ${limits.maxFields}`,
    });
  }
  for (const key of free.slice(0, limits.maxFields + 1)) {
    const problem = looseFieldNameProblem(key);
    if (problem !== undefined) violations.push({ field: key, description: problem });
    else violations.push(...freeFormViolations(key, fields[key], limits.field));
  }
  if (violations.length > 0) return violations;
  const bytes = Buffer.byteLength(JSON.stringify(fields));
  return bytes > limits.maxBytes
    ? [{ field: "body", description: `is ${bytes} bytes of JSON, more than the limit of ${limits.maxBytes}` }]
    : [];
}

/**
 * Why `name` cannot name a loose resource's field (in a body or an update mask), or undefined: the
 * key rule of {@link freeFormKeyProblem}, and at most {@link LOOSE_RESOURCE_LIMITS}.maxNameLength.
 *
 * @example
 * looseFieldNameProblem("constructor"); // "is a reserved name (a member of every JSON object): choose another"
 */
export function looseFieldNameProblem(name: string): string | undefined {
  if (name.length > LOOSE_RESOURCE_LIMITS.maxNameLength) {
    return `is longer than ${LOOSE_RESOURCE_LIMITS.maxNameLength} characters`;
  }
  return freeFormKeyProblem(name);
}

/**
 * Throws code 3 with the violations of {@link looseFieldViolations}, if any.
 *
 * @example
 * checkLooseFields(body); // throws for { name: "x", settings: <nested 9 deep> }
 */
export function checkLooseFields(fields: Record<string, unknown>): void {
  const violations = looseFieldViolations(fields);
  if (violations.length > 0) throw invalidArgument(violations);
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
