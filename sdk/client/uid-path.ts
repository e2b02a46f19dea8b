import { InvalidArgumentError } from "../errors/api-error.js";
import { HIERARCHICAL_UID_PATTERN } from "../schemas/common.js";

/**
 * A flat uid (roles): hex digits only, no path.
 *
 * @example
 * FLAT_UID_PATTERN.test("0123456789abcdef0123456789abcdef01234567"); // true
 */
export const FLAT_UID_PATTERN = /^[0-9a-f]{1,64}$/;

/**
 * Which uid form an argument takes: nested under groups, flat (roles), or either.
 *
 * @example
 * const form: UidForm = "flat";
 */
export type UidForm = "hierarchical" | "flat" | "any";

// Spec §2: "A role uid is a single flat hexadecimal string"; every other kind nests under groups.
const FLAT_COLLECTIONS: ReadonlySet<string> = new Set(["roles"]);

/**
 * The uid form of a collection's items.
 *
 * @example
 * uidFormOf("roles"); // "flat"
 * uidFormOf("groups"); // "hierarchical"
 */
export function uidFormOf(collection: string): UidForm {
  return FLAT_COLLECTIONS.has(collection) ? "flat" : "hierarchical";
}

const RULES: Record<UidForm, { test: (v: string) => boolean; rule: string }> = {
  hierarchical: {
    test: (v) => HIERARCHICAL_UID_PATTERN.test(v),
    rule: "40 lowercase hex digits, then any number of `/` + 16 hex digits (pattern ^[0-9a-f]{40}(/[0-9a-f]{16})*$)",
  },
  flat: { test: (v) => FLAT_UID_PATTERN.test(v), rule: "lowercase hex digits only (a flat role uid)" },
  any: {
    test: (v) => HIERARCHICAL_UID_PATTERN.test(v) || FLAT_UID_PATTERN.test(v),
    rule: "a hierarchical uid (40 hex digits, then `/` + 16 hex digits per level) or a flat hex role uid",
  },
};

/**
 * Why `value` is not a uid of the given form, or undefined when it is. Never echoes the value.
 *
 * @example
 * uidProblem("../identities/x", "hierarchical"); // "must be 40 lowercase hex digits, then …"
 */
export function uidProblem(value: unknown, form: UidForm): string | undefined {
  if (typeof value !== "string") return `must be a string uid: ${RULES[form].rule}`;
  if (value === "") return `must not be empty: ${RULES[form].rule}`;
  return RULES[form].test(value) ? undefined : `must be ${RULES[form].rule}`;
}

/**
 * The path segment(s) of a uid, after checking its form: a value with `..`, `%2e`, an empty
 * segment or a trailing `/` never becomes part of a URL (URL parsing would resolve dot segments
 * and send the request to another resource). `argument` names the parameter in the error.
 *
 * @example
 * `/iam/v2beta1/groups/${uidPath(uid, "uid", "hierarchical")}`;
 * uidPath("../identities/abc", "uid", "hierarchical"); // throws InvalidArgumentError naming `uid`
 */
export function uidPath(value: string, argument: string, form: UidForm): string {
  const problem = uidProblem(value, form);
  if (problem) throw new InvalidArgumentError(argument, `${argument} ${problem}`);
  // Only hex and `/` remain: nothing to escape.
  return value;
}
