export { AdvisorySeed, newAdvisoryId } from "./advisories.js";
export type { FreeFormLimits } from "./field-limits.js";
export {
  FREE_FORM_LIMITS,
  freeForm,
  freeFormKeyProblem,
  freeFormRefinement,
  freeFormViolations,
} from "./field-limits.js";
export type { GroupFixture, SeedCounts } from "./fixtures.js";
export { Fixtures, loadFixtures } from "./fixtures.js";
export type { KindRules } from "./kind-rules.js";
export { KIND_RULES, RULES_BY_COLLECTION } from "./kind-rules.js";
export { RepoSeed } from "./repos.js";
export type { RowAnswers, StoredPage, StoredRow } from "./resource-reads.js";
export type { ResourceServiceOptions, WriteNotice } from "./resource-service.js";
export { MAX_LISTED_VIOLATIONS, ResourceService } from "./resource-service.js";
export { TagSeed } from "./tags.js";
export { applyPaths, maskPaths } from "./update-mask.js";
export { requireObject, throwZodViolations } from "./violations.js";
