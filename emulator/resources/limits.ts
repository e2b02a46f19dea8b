/**
 * How many blocking children a refused delete lists (the message says how many more).
 *
 * @example
 * violations.length <= MAX_LISTED_VIOLATIONS; // true
 */
export const MAX_LISTED_VIOLATIONS = 20;
