// Public face of the `pulumi-irv` operations CLI: `recover`, `import-org`, `access-review` and `drift`, also
// callable as functions.
export type { AccessReviewOptions, AccessReviewResult } from "./access-review.js";
export { accessReview } from "./access-review.js";
export { CliError } from "./cli-error.js";
export type { DriftOptions, DriftResult } from "./drift.js";
export { drift } from "./drift.js";
export type { ImportOrgOptions, ImportOrgReport } from "./import-org.js";
export { importOrg } from "./import-org.js";
export type { RecoverOptions, RecoveryReport } from "./recover.js";
export { RECOVER_CLOCK_MARGIN_MS, recover } from "./recover.js";
export { runCli } from "./run-cli.js";
