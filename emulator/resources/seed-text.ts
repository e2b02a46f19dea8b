import { z } from "zod";
import { isWellFormed } from "../core/index.js";

/**
 * A string field of a seeded read-only resource: well-formed Unicode, as over the API (a lone
 * surrogate would be stored as U+FFFD, and two names would collide).
 *
 * @example
 * const RepoSeed = z.object({ name: SeedText.min(1), description: SeedText.optional() });
 */
export const SeedText = z
  .string()
  .refine(isWellFormed, { message: "is not well-formed Unicode (it holds a lone surrogate)" });
