// What the benchmarks share (bench/*.ts import it from here): the session that sets up the CLI, the
// emulator, stacks and the result file; side-by-side timing; statistics and formatting. And the
// runner's pieces (scripts/bench.mjs): the list of benchmark files and RESULTS.md.
// Loads with plain `node` too (the emulator's benchmarks run so): the e2e harness, which needs the
// `.ts` hook (register-ts.mjs), is loaded only by a session that runs Pulumi.

export type { BenchResult, MachineInfo } from "./bench-kit.ts";
export {
  bytes,
  checkpointOption,
  loadAverage,
  loadDist,
  machineInfo,
  median,
  min,
  ms,
  numberOption,
  OUT_DIR,
  progress,
  ROOT,
  saveResult,
  table,
  times,
} from "./bench-kit.ts";
export type {
  ApiCalls,
  BenchSessionOptions,
  BenchStackOptions,
  Measurement,
  OrgTreeOptions,
} from "./bench-session.ts";
export { apiCalls, BenchSession, benchSession, DATA_SOURCE_ROUTE, runBench } from "./bench-session.ts";
export type { BenchmarkFile } from "./benchmark-files.ts";
export { listBenchmarks, parseHeader, selectBenchmarks } from "./benchmark-files.ts";
export type { Role, RoleUsage } from "./process-sampler.ts";
export { ProcessSampler, processCpuMs } from "./process-sampler.ts";
export { startWithReadyLine } from "./ready-line.ts";
export type { VerbatimOutput } from "./results-file.ts";
export { readResults, renderResults, writeResults } from "./results-file.ts";
export type { ResultsSection } from "./results-sections.ts";
export { headingShape, mergeResults, splitSections } from "./results-sections.ts";
export type { Samples, SideRatio, Step, TimeStepsOptions } from "./side-by-side.ts";
export { alternate, compareSides, medianOf, timed, timeSteps } from "./side-by-side.ts";
