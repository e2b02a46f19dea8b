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
// Run: npm run bench -- engine   (or node --import ./bench/support/register-ts.mjs bench/engine-overhead.ts)
// Options: --size=N (IRV_BENCH_SIZE, default 100 per kind), --rounds=N (IRV_BENCH_ROUNDS, default 3).
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type * as Emulator from "../emulator/index.ts";
import { ensurePulumiCli } from "../scripts/pulumi-cli.ts";
import type { OperationResult, StateResource, TestStack } from "../test/e2e/harness/index.ts";
import { createStack, fixtureDir, summary } from "../test/e2e/harness/index.ts";
import {
  bytes,
  loadDist,
  machineInfo,
  median,
  ms,
  numberOption,
  progress,
  saveResult,
  table,
  times,
} from "./support/bench-kit.ts";

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

const DATA_SOURCE_ROUTE = "GET /iam/v2beta1/roles";

interface CallCount {
  resourceCalls: number;
  dataSourceCalls: number;
  byRoute: Record<string, number>;
  /** CPU time of this process (the in-process emulator, plus the idle harness) during the step. */
  emulatorCpuMs: number;
}

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

async function main(): Promise<void> {
  const cli = await ensurePulumiCli({ log: progress });
  const machine = machineInfo(cli.binDir);
  const { startEmulator } = await loadDist<typeof Emulator>("emulator/index.js");
  const emu = await startEmulator({ port: 0 });

  const stacks = {} as Record<Mode, TestStack>;
  for (const mode of MODES) {
    stacks[mode] = await createStack({
      program: fixtureDir("org-tree-program"),
      binDir: cli.binDir,
      stackName: mode,
      timeoutMs: 900_000,
      config: {
        "irv:baseUrl": emu.baseUrl,
        "irv:token": { value: emu.adminToken, secret: true },
        orgUid: emu.orgUid,
        mode,
        prefix: mode,
        groups: String(SIZE),
        identities: String(SIZE),
        bindings: String(SIZE),
      },
    });
  }

  const times_: Record<string, Record<Mode, number[]>> = Object.fromEntries(
    STEPS.map((s) => [s.key, { irv: [], noop: [] }]),
  );
  const calls: Record<string, CallCount[]> = Object.fromEntries(STEPS.map((s) => [s.key, []]));
  let state: Record<Mode, StateBreakdown> | undefined;
  progress(`engine overhead: ${RESOURCES} resources, ${ROUNDS} rounds (load average ${machine.loadAverage})`);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const step of STEPS) {
        // Alternate who goes first, so that drift in machine load hits both sides alike.
        const order = (round + STEPS.indexOf(step)) % 2 === 0 ? MODES : [...MODES].reverse();
        for (const mode of order) {
          if (mode === "irv") emu.resetStats();
          const cpu = process.cpuUsage();
          const result = await step.run(stacks[mode], round);
          const used = process.cpuUsage(cpu);
          const emulatorCpuMs = (used.user + used.system) / 1000;
          times_[step.key]?.[mode].push(result.durationMs);
          const changes = JSON.stringify(summary(result.events)?.resourceChanges ?? {});
          if (mode === "irv") {
            const byRoute = emu.stats().requests;
            const dataSourceCalls = byRoute[DATA_SOURCE_ROUTE] ?? 0;
            const resourceCalls = Object.values(byRoute).reduce((a, b) => a + b, 0) - dataSourceCalls;
            calls[step.key]?.push({ resourceCalls, dataSourceCalls, byRoute, emulatorCpuMs });
          }
          progress(`round ${round} ${step.key} ${mode}: ${ms(result.durationMs)} ${changes}`);
          if (step.key === "up-create" && round === 1 && mode === "noop") {
            state = { irv: await stateBreakdown(stacks.irv), noop: await stateBreakdown(stacks.noop) };
          }
        }
      }
    }
  } finally {
    for (const mode of MODES) await stacks[mode].dispose().catch(() => undefined);
    await emu.close();
  }

  // 1. Engine overhead.
  const overheadRows: string[][] = [];
  const ratios: Record<string, number> = {};
  let totalIrv = 0;
  let totalNoop = 0;
  let totalCpu = 0;
  for (const step of STEPS) {
    const t = times_[step.key] as Record<Mode, number[]>;
    const irv = median(t.irv);
    const noop = median(t.noop);
    const cpu = median((calls[step.key] ?? []).map((c) => c.emulatorCpuMs));
    totalIrv += irv;
    totalNoop += noop;
    totalCpu += cpu;
    ratios[step.key] = irv / noop;
    overheadRows.push([
      step.label,
      ms(irv),
      ms(noop),
      times(irv / noop),
      irv / noop <= GOAL_RATIO ? "yes" : "**no**",
      ms(cpu),
    ]);
  }
  ratios.total = totalIrv / totalNoop;
  overheadRows.push([
    "**all six steps**",
    ms(totalIrv),
    ms(totalNoop),
    times(totalIrv / totalNoop),
    totalIrv / totalNoop <= GOAL_RATIO ? "yes" : "**no**",
    ms(totalCpu),
  ]);

  // 2. API calls per step.
  const callRows: string[][] = [];
  let callsExact = true;
  for (const step of STEPS) {
    const runs = calls[step.key] ?? [];
    const worst = runs.reduce((a, b) => (b.resourceCalls > a.resourceCalls ? b : a), runs[0] as CallCount);
    const exact = runs.every((r) => r.resourceCalls === step.minimumCalls);
    const dsExpected = step.runsProgram ? 1 : 0;
    const dsExact = runs.every((r) => r.dataSourceCalls === dsExpected);
    callsExact &&= exact && dsExact;
    const routes = Object.entries(worst.byRoute)
      .filter(([route]) => route !== DATA_SOURCE_ROUTE)
      .map(([route, n]) => `${route} ×${n}`)
      .join(", ");
    callRows.push([
      step.label,
      String(worst.resourceCalls),
      String(step.minimumCalls),
      step.minimumCalls === 0
        ? worst.resourceCalls === 0
          ? "exact (0 = 0)"
          : "**over**"
        : times(worst.resourceCalls / step.minimumCalls),
      `${worst.dataSourceCalls} (minimum ${dsExpected})`,
      routes || "none",
    ]);
  }

  // 3. State size.
  const s = state as Record<Mode, StateBreakdown>;
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

  saveResult({
    name: "engine-overhead",
    markdown,
    machine,
    goalsMet: overheadMet && callsExact,
    data: { size: SIZE, rounds: ROUNDS, times: times_, ratios, calls, state },
  });
}

await main();
