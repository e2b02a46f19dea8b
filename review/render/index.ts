// Public face of the access review's rendering: markdown (one PR comment), versioned JSON and a
// plain-text table, from the computation in ../access.

export { PreviewDigest, sidesOfPreview, stackResourceOf } from "./preview-steps.js";
export { DIAGRAM_MAX_NODES, renderMermaid, renderTree } from "./render-diagram.js";
export { DEFAULT_MAX_CHARS, REVIEW_MARKER, renderMarkdown } from "./render-markdown.js";
export { identityLabel, renderText, TEXT_WIDTH } from "./render-text.js";
export type { ReviewJson } from "./review-json.js";
export { REVIEW_JSON_VERSION, reviewJson } from "./review-json.js";
export type { LiveSummary, StackReview } from "./stack-review.js";
export { summarize } from "./stack-review.js";
