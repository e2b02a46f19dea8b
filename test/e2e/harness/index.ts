// Public face of the e2e harness: drive real Pulumi programs through the Automation API and the real CLI
// on a private, offline backend. See docs/toolchain.md.

export { PulumiTimeoutError } from "./deadline.js";
export {
  type DiagnosticEvent,
  diagnostics,
  type EngineEvent,
  type PolicyEvent,
  policyPacksRun,
  policyViolations,
  type SummaryEvent,
  summary,
} from "./engine-events.js";
export { fixtureDir } from "./fixtures.js";
export { pulumiBinDir } from "./pulumi-bin.js";
export {
  type CommandResult,
  PulumiCommandError,
  pulumiCommand,
  type RunPulumiOptions,
  runPulumi,
} from "./run-pulumi.js";
export {
  type ConfigValue,
  createStack,
  type OperationOptions,
  type OperationResult,
  type StackState,
  type StateResource,
  TestStack,
  type TestStackOptions,
  withStack,
} from "./test-stack.js";
