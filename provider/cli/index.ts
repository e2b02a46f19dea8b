// Public face of the `pulumi-irv` operations CLI: `recover` and `import-org`, also callable as functions.
export { CliError } from "./cli-error.js";
export type { ImportOrgOptions, ImportOrgReport } from "./import-org.js";
export { importOrg } from "./import-org.js";
export type { RecoverOptions, RecoveryReport } from "./recover.js";
export { RECOVER_CLOCK_MARGIN_MS, recover } from "./recover.js";
export { runCli } from "./run-cli.js";
