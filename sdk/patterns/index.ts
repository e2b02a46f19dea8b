export { quoteMeta } from "./quote-meta.js";
export type { CompiledPattern, PatternProblem } from "./re2-pattern.js";
export { compilePattern, describePatternProblem, matchesPattern, patternProblem } from "./re2-pattern.js";
