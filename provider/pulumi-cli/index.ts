// Public face of the `pulumi` command as the operations CLI and the policy pack run it: plain
// processes with a one-line error, for the reads that need no Automation API (state, config, the
// selected stack). Loads nothing but node:child_process, so a command starts at once.
export type { PulumiAt, PulumiFailure } from "./pulumi-command.js";
export { exportStack, runPulumi, selectedStack, stackConfig } from "./pulumi-command.js";
