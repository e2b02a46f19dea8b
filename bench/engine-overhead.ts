// Benchmarks 1–3: the cost of pulumi-irv inside the real Pulumi engine.
//
// One program shape (test/e2e/fixtures/org-tree-program: SIZE groups in a tree, SIZE identities,
// SIZE role bindings) runs twice side by side, on two stacks:
//   irv   the real Group/Identity/RoleBinding resources against the emulator (static token);
//   noop  the same resources, dependencies and output keys on a dynamic provider that only returns
//         its inputs (the engine's floor for this shape: CLI, language host, plugin, checkpoints).
// Every round runs preview (create) → up (create) → preview (no changes) → up (update every group) →
// refresh → destroy on both stacks, alternating which goes first, and reports the median per step.
//
// 1. Engine overhead: median irv time / median noop time per step. Goal ≤ 1.25×.
// 2. API calls per step, from the emulator's counters, against the minimum (one call per create,
//    update, delete and read; none for a preview). Goal exactly 1.00. Data-source calls (getRole,
//    one list call per distinct role per program run) are counted separately.
// 3. State size: bytes per resource in the exported state, and how much of it is `__provider`.
//
// Run: npm run bench -- engine
// Options: --size=N (IRV_BENCH_SIZE, default 100 per kind), --rounds=N (IRV_BENCH_ROUNDS, default 3).
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { OperationResult, StateResource, TestStack } from "../test/e2e/harness/index.ts";
import type { ApiCalls, Measurement, SideRatio } from "./support/index.ts";
import {
  bytes,
  compareSides,
  DATA_SOURCE_ROUTE,
  medianOf,
  ms,
  numberOption,
  progress,
  runBench,
  table,
  timeSteps,
  times,
} from "./support/index.ts";

const SIZE = numberOption("size", "IRV_BENCH_SIZE", 100);
const ROUNDS = numberOption("rounds", "IRV_BENCH_ROUNDS", 3);
const GOAL_RATIO = 1.25;
const RESOURCES = 3 * SIZE;

type Mode = "irv" | "noop";
const MODES: readonly Mode[] = ["irv", "noop"];

interface Step {
  key: string;
  label: string;
  /** API calls (besides data sources) this step needs at least. */
  minimumCalls: number;
  /** Whether the program runs (so its data sources do). */
  runsProgram: boolean;
  run(stack: TestStack, round: number): Promise<OperationResult>;
}

const STEPS: readonly Step[] = [
  {
    key: "preview-create",
    label: `preview (${RESOURCES} to create)`,
    minimumCalls: 0,
    runsProgram: true,
    run: (s) => s.preview(),
  },
  {
    key: "up-create",
    label: `up (create ${RESOURCES})`,
    minimumCalls: RESOURCES,
    runsProgram: true,
    run: (s) => s.up(),
  },
  {
    key: "preview-same",
    label: "preview (no changes)",
    minimumCalls: 0,
    runsProgram: true,
    run: (s) => s.preview({ args: ["--expect-no-changes"] }),
  },
  {
    key: "up-update",
    label: `up (update ${SIZE} groups)`,
    minimumCalls: SIZE,
    runsProgram: true,
    run: async (s, round) => {
      await s.setConfig({ revision: ` (revision ${round})` });
      return s.up();
    },
  },
  {
    key: "refresh",
    label: `refresh (read ${RESOURCES})`,
    minimumCalls: RESOURCES,
    runsProgram: false,
    run: (s) => s.refresh(),
  },
  {
    key: "destroy",
    label: `destroy (delete ${RESOURCES})`,
    minimumCalls: RESOURCES,
    runsProgram: false,
    run: (s) => s.destroy(),
  },
];

interface StateBreakdown {
  resources: number;
  exportedBytes: number;
  checkpointBytes: number;
  perResource: number;
  providerPerResource: number;
  engineMetadataPerResource: number;
  propertiesPerResource: number;
}

/** The checkpoint file the file backend keeps for the stack. */
function checkpointBytes(stack: TestStack): number {
  const dir = path.join(stack.workDir, "state", ".pulumi", "stacks");
  let total = 0;
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name === `${stack.stackName}.json` || entry.name === `${stack.stackName}.json.gz`)
        total += statSync(p).size;
    }
  };
  walk(dir);
  return total;
}

async function stateBreakdown(stack: TestStack): Promise<StateBreakdown> {
  const state = await stack.exportState();
  const all = state.deployment.resources ?? [];
  const ours = all.filter((r: StateResource) => r.type.startsWith("pulumi-nodejs:dynamic/"));
  const size = (v: unknown) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v)));
  let provider = 0;
  let metadata = 0;
  let properties = 0;
  let total = 0;
  for (const r of ours) {
    total += size(r);
    const p = (o: Record<string, unknown> | undefined) => size(o?.__provider);
    provider += p(r.inputs) + p(r.outputs);
    metadata += size(r.stackTrace) + size(r.sourcePosition);
    const strip = (o: Record<string, unknown> | undefined) => {
      const { __provider: _, ...rest } = o ?? {};
      return size(rest);
    };
    properties += strip(r.inputs) + strip(r.outputs);
  }
  const n = Math.max(1, ours.length);
  return {
    resources: ours.length,
    exportedBytes: size(state),
    checkpointBytes: checkpointBytes(stack),
    perResource: total / n,
    providerPerResource: provider / n,
    engineMetadataPerResource: metadata / n,
    propertiesPerResource: properties / n,
  };
}

/** One run of a step: its measurement, the changes the engine reported, the state after the first create. */
type Sample = Measurement & { changes: unknown; state?: StateBreakdown };

await runBench({}, async (session) => {
  const stacks = {} as Record<Mode, TestStack>;
  for (const mode of MODES) stacks[mode] = await session.orgTree({ stackName: mode, mode, per: SIZE });

  progress(
    `engine overhead: ${RESOURCES} resources, ${ROUNDS} rounds (load average ${session.machine.loadAverage})`,
  );
  const samples = await timeSteps<Step, Mode, Sample>({
    rounds: ROUNDS,
    steps: STEPS,
    sides: MODES,
    run: async (step, mode, round) => {
      const { result, ...m } = await session.measure(() => step.run(stacks[mode], round));
      const changes = session.harness.summary(result.events)?.resourceChanges ?? {};
      if (step.key !== "up-create" || round !== 1) return { ...m, changes };
      return { ...m, changes, state: await stateBreakdown(stacks[mode]) };
    },
    note: (s) => JSON.stringify(s.changes),
  });

  // 1. Engine overhead.
  const compared = compareSides(samples, STEPS, "irv", "noop");
  const cpuOf = (key: string) => medianOf(samples[key]?.irv ?? [], (s) => s.emulatorCpuMs);
  const overheadRow = (label: string, r: SideRatio, cpu: number) => [
    label,
    ms(r.a),
    ms(r.b),
    times(r.ratio),
    r.ratio <= GOAL_RATIO ? "yes" : "**no**",
    ms(cpu),
  ];
  const overheadRows = STEPS.map((step, i) =>
    overheadRow(step.label, compared.steps[i] as SideRatio, cpuOf(step.key)),
  );
  overheadRows.push(
    overheadRow(
      "**all six steps**",
      compared.total,
      STEPS.reduce((n, step) => n + cpuOf(step.key), 0),
    ),
  );
  const ratios: Record<string, number> = Object.fromEntries(
    [...compared.steps, compared.total].map((r) => [r.key, r.ratio]),
  );

  // 2. API calls per step (the no-op side makes none).
  const callRows: string[][] = [];
  let callsExact = true;
  for (const step of STEPS) {
    const runs = (samples[step.key]?.irv ?? []).map((r) => r.calls);
    const worst = runs.reduce((a, b) => (b.resource > a.resource ? b : a), runs[0] as ApiCalls);
    const dsExpected = step.runsProgram ? 1 : 0;
    callsExact &&= runs.every((r) => r.resource === step.minimumCalls && r.dataSource === dsExpected);
    const routes = Object.entries(worst.byRoute)
      .filter(([route]) => route !== DATA_SOURCE_ROUTE)
      .map(([route, n]) => `${route} ×${n}`)
      .join(", ");
    callRows.push([
      step.label,
      String(worst.resource),
      String(step.minimumCalls),
      step.minimumCalls === 0
        ? worst.resource === 0
          ? "exact (0 = 0)"
          : "**over**"
        : times(worst.resource / step.minimumCalls),
      `${worst.dataSource} (minimum ${dsExpected})`,
      routes || "none",
    ]);
  }

  // 3. State size.
  const s = Object.fromEntries(
    MODES.map((mode) => [mode, samples["up-create"]?.[mode][0]?.state as StateBreakdown]),
  ) as Record<Mode, StateBreakdown>;
  const stateRows = MODES.map((mode) => [
    mode,
    bytes(s[mode].checkpointBytes),
    bytes(s[mode].perResource),
    bytes(s[mode].providerPerResource),
    bytes(s[mode].propertiesPerResource),
    bytes(s[mode].engineMetadataPerResource),
  ]);

  const overheadMet = Object.values(ratios).every((r) => r <= GOAL_RATIO);
  const markdown = [
    "## 1. Engine overhead",
    "",
    `${RESOURCES} resources (${SIZE} groups in a tree of fan-out 4, ${SIZE} identities, ${SIZE} role bindings),`,
    "program `test/e2e/fixtures/org-tree-program`, against the emulator with a static token, versus the same",
    "program shape on a dynamic provider that only returns its inputs (the engine's floor). Wall time of",
    `each CLI command, median of ${ROUNDS} rounds run side by side (alternating which goes first).`,
    `Goal ≤ ${GOAL_RATIO.toFixed(2)}×. The emulator runs inside the benchmark process, on the same two`,
    "cores as the engine and the provider: its CPU time during each pulumi-irv step is the last column.",
    "",
    table(["step", "pulumi-irv", "no-op providers", "ratio", "goal met", "emulator CPU"], overheadRows),
    "",
    "What pulumi-irv adds per command is mostly fixed: the provider process loads `pulumi-irv/internal/runtime`",
    "(zod, undici, jose; section 5) before its first operation, and every operation is a real HTTP call",
    "that the engine waits for along the dependency chain. It weighs most in the shortest command",
    "(refresh, about a second). Run-to-run spread on this shared machine is about ±0.1× per step.",
    "",
    "## 2. API calls per step",
    "",
    "From the emulator's request counters, worst round; minimum = one call per create, update, read and",
    "delete, none for a preview. Data-source calls (`getRole`, one list call per distinct role each time",
    "the program runs, i.e. ceil(matches/200) = 1) are counted apart. Goal: exactly 1.00.",
    "",
    table(["step", "API calls", "minimum", "ratio", "data-source calls", "routes"], callRows),
    "",
    "## 3. State size",
    "",
    `Exported state after creating ${RESOURCES} resources. Per resource: the whole entry; \`__provider\``,
    "(the serialized provider, stored in inputs and outputs); inputs+outputs without it; the engine's",
    "own metadata (stackTrace, sourcePosition). Checkpoint = the file backend's stack file.",
    "",
    table(
      ["stack", "checkpoint", "per resource", "`__provider`", "inputs+outputs", "engine metadata"],
      stateRows,
    ),
  ].join("\n");

  session.save({
    markdown,
    goals: { [`overhead ≤ ${GOAL_RATIO}×`]: overheadMet, "calls exact": callsExact },
    data: { size: SIZE, rounds: ROUNDS, ratios, samples },
  });
});
