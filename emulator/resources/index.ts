export {
  checkLooseFields,
  FREE_FORM_LIMITS,
  type FreeFormLimits,
  freeForm,
  freeFormKeyProblem,
  freeFormRefinement,
  freeFormViolations,
  LOOSE_RESOURCE_LIMITS,
  looseFieldNameProblem,
  looseFieldViolations,
} from "./field-limits.js";
export { Fixtures, type GroupFixture, loadFixtures, type SeedCounts } from "./fixtures.js";
export { KIND_RULES, type KindRules, RULES_BY_COLLECTION } from "./kind-rules.js";
export { MAX_LISTED_VIOLATIONS, ResourceService, type ResourceServiceOptions } from "./resource-service.js";
export { applyPaths, maskPaths } from "./update-mask.js";
export { requireObject, throwZodViolations } from "./violations.js";
