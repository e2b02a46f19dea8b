// Public face of the e2e harness: drive real Pulumi programs through the Automation API and the real CLI
// on a private, offline backend. See docs/toolchain.md.

export { PulumiTimeoutError } from "./deadline.js";
export type { DiagnosticEvent, EngineEvent, PolicyEvent, SummaryEvent } from "./engine-events.js";
export { diagnostics, policyPacksRun, policyViolations, summary } from "./engine-events.js";
export { fixtureDir } from "./fixtures.js";
export { pulumiBinDir } from "./pulumi-bin.js";
export type { CommandResult, RunPulumiOptions } from "./run-pulumi.js";
export { PulumiCommandError, pulumiCommand, runPulumi } from "./run-pulumi.js";
export type {
  ConfigValue,
  OperationOptions,
  OperationResult,
  StackState,
  StateResource,
  TestStackOptions,
} from "./test-stack.js";
export { createStack, TestStack, withStack } from "./test-stack.js";
