export { Fixtures, type GroupFixture, loadFixtures, type SeedCounts } from "./fixtures.js";
export { KIND_RULES, type KindRules, RULES_BY_COLLECTION } from "./kind-rules.js";
export { MAX_LISTED_VIOLATIONS, ResourceService, type ResourceServiceOptions } from "./resource-service.js";
export { applyPaths, maskPaths } from "./update-mask.js";
export { requireObject, throwZodViolations } from "./violations.js";
