// Benchmark 7: the native plugin (pulumi-resource-irv) against the dynamic providers.
//
// A Pulumi YAML program on the plugin and the TypeScript org-tree program (mode irv) on the dynamic
// providers, side by side on one emulator: the same org of SIZE groups in a tree of fan-out 4, SIZE
// identities and SIZE role bindings (viewer, looked up once).
// Every round runs preview (create) → up (create) → preview (no changes) → up (update every group's
// description) → refresh → destroy on both stacks, alternating which goes first; the median per step.
//
// Reported: wall time per step native ÷ dynamic (goal ≤ 1.00), API calls per step (the same minimum
// on both sides), and state bytes per resource (goal ≤ 0.5× the dynamic providers'). Before the
// rounds: the plugin's start (spawn to port printed) and bundle bytes next to a bundle of the same
// entry that also loads the whole package (the TypeScript classes, @pulumi/pulumi's root), which is
// what the plugin loaded before its imports were narrowed.
//
// Run: npm run bench -- native-plugin   (builds first; --size=N, --rounds=N,
// --checkpoints=final|every: by default both stacks run with PULUMI_SKIP_CHECKPOINTS=true, as in
// bench/scale.ts, so that the file backend's rewrite of the whole state after every step, which
// grows with the square of the stack and is the same for both sides, does not swamp them at size)
// Only when named: it builds and packs the plugin and the YAML language host first
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { bundlePlugin } from "../scripts/build-plugin.ts";
import type { OperationResult, TestStack } from "../test/e2e/harness/index.ts";
import { prepareNativePlugin } from "../test/e2e/support/native-plugin.ts";
import type { Measurement, SideRatio } from "./support/index.ts";
import {
  alternate,
  bytes,
  checkpointOption,
  compareSides,
  median,
  ms,
  numberOption,
  OUT_DIR,
  progress,
  ROOT,
  runBench,
  table,
  timeSteps,
  times,
} from "./support/index.ts";

const SIZE = numberOption("size", "IRV_BENCH_SIZE", 100);
const ROUNDS = numberOption("rounds", "IRV_BENCH_ROUNDS", 1);
const RESOURCES = 3 * SIZE;
const CHECKPOINTS = checkpointOption();
const STACK_ENV: Record<string, string> = CHECKPOINTS === "final" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
type Side = "native" | "dynamic";
const SIDES: readonly Side[] = ["native", "dynamic"];

const STEPS: readonly {
  key: string;
  label: string;
  run(s: TestStack, round: number): Promise<OperationResult>;
}[] = [
  { key: "preview-create", label: `preview (${RESOURCES} to create)`, run: (s) => s.preview() },
  { key: "up-create", label: `up (create ${RESOURCES})`, run: (s) => s.up() },
  {
    key: "preview-same",
    label: "preview (no changes)",
    run: (s) => s.preview({ args: ["--expect-no-changes"] }),
  },
  {
    key: "up-update",
    label: `up (update ${SIZE} groups)`,
    run: async (s, round) => {
      await s.setConfig({ revision: ` (revision ${round})` });
      return s.up();
    },
  },
  { key: "refresh", label: `refresh (read ${RESOURCES})`, run: (s) => s.refresh() },
  { key: "destroy", label: `destroy (delete ${RESOURCES})`, run: (s) => s.destroy() },
];

// A Pulumi YAML interpolation.
const ref = (expr: string) => `\${${expr}}`;

// The org-tree program's shape, written out as Pulumi YAML (YAML has no loops).
function yamlOrg(dir: string): string {
  const lines = [
    "config:",
    "  orgUid: { type: string }",
    '  revision: { type: string, default: "" }',
    "variables:",
    "  viewer:",
    "    fn::invoke: { function: irv:iam:getRole, arguments: { name: viewer } }",
    "resources:",
  ];
  for (let i = 0; i < SIZE; i++) {
    const parent = ref(i === 0 ? "orgUid" : `g${Math.floor((i - 1) / 4)}.uid`);
    lines.push(`  g${i}:`, "    type: irv:iam:Group");
    lines.push(
      `    properties: { parentUid: "${parent}", name: native-g${i}, description: "group ${i}\${revision}" }`,
    );
  }
  for (let j = 0; j < SIZE; j++) {
    lines.push(`  i${j}:`, "    type: irv:iam:Identity", "    properties:");
    lines.push(`      groupUid: \${g${j % SIZE}.uid}`, `      name: native-i${j}`);
    lines.push(
      `      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/r${j}:ref:refs/heads/main" }`,
    );
  }
  for (let k = 0; k < SIZE; k++) {
    lines.push(`  b${k}:`, "    type: irv:iam:RoleBinding");
    lines.push(
      `    properties: { groupUid: "\${g${k % SIZE}.uid}", identityUid: "\${i${k}.uid}", roleUid: "\${viewer.uid}" }`,
    );
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), "name: irv-native-bench\nruntime: yaml\n");
  writeFileSync(path.join(dir, "Main.yaml"), `${lines.join("\n")}\n`);
  return dir;
}

// The parts of a resource's state, for the breakdown: what the language host sends about the program
// (a Go stack trace from the YAML host, the program's source position), the provider's inputs and
// outputs, and the engine's own bookkeeping (URN, id, type, parent, provider, dependencies, times).
const STATE_PARTS = {
  "program position (sourcePosition, stackTrace)": ["sourcePosition", "stackTrace"],
  inputs: ["inputs"],
  outputs: ["outputs"],
} as const;
type StatePart = keyof typeof STATE_PARTS | "engine bookkeeping (the rest)";

interface StateSize {
  perResource: number;
  parts: Record<StatePart, number>;
}

async function stateBytesPerResource(stack: TestStack): Promise<StateSize> {
  const state = await stack.exportState();
  const ours = (state.deployment.resources ?? []).filter(
    (r) => r.type.startsWith("irv:") || r.type.startsWith("pulumi-nodejs:dynamic/irv:"),
  );
  const n = Math.max(1, ours.length);
  const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
  const total = ours.reduce((sum, r) => sum + size(r), 0);
  const parts = Object.fromEntries(
    Object.entries(STATE_PARTS).map(([part, keys]) => [
      part,
      ours.reduce(
        (sum, r) => sum + keys.reduce((k, key) => k + (key in r ? size({ [key]: r[key] }) : 0), 0),
        0,
      ) / n,
    ]),
  ) as Record<StatePart, number>;
  const named = Object.values(parts).reduce((a, b) => a + b, 0);
  parts["engine bookkeeping (the rest)"] = total / n - named;
  return { perResource: total / n, parts };
}

/** Milliseconds from spawning `node <bundle>` to the port line on its stdout. */
function timeToReady(bundle: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [bundle], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout.once("data", () => {
      resolve(performance.now() - started);
      child.kill("SIGTERM");
    });
    child.once("exit", (code) => reject(new Error(`${bundle} exited with ${code} before it was ready`)));
  });
}

/** The plugin's bundle vs the same entry with the whole package loaded too, alternating, RUNS each. */
async function startTimes(pluginDir: string) {
  const dir = path.join(OUT_DIR, "native-plugin-whole-package");
  mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, "entry.mjs");
  const dist = (p: string) => JSON.stringify(path.join(ROOT, "dist", "provider", p));
  writeFileSync(entry, `import ${dist("index.js")};\nimport ${dist("plugin/bin.js")};\n`);
  const bundles = {
    plugin: path.join(pluginDir, "pulumi-resource-irv.mjs"),
    whole: path.join(dir, "bundle.mjs"),
  };
  await bundlePlugin(entry, bundles.whole);
  copyFileSync(path.join(pluginDir, "schema.json"), path.join(dir, "schema.json"));
  const ready = { plugin: [] as number[], whole: [] as number[] };
  for (let i = 0; i < 7; i++)
    for (const k of alternate(["plugin", "whole"] as const, i)) ready[k].push(await timeToReady(bundles[k]));
  const size = { plugin: statSync(bundles.plugin).size, whole: statSync(bundles.whole).size };
  progress(
    `plugin ready ${ms(median(ready.plugin))} (${bytes(size.plugin)}), whole package ${ms(median(ready.whole))}`,
  );
  return { ready, size };
}

await runBench({}, async (session) => {
  const plugin = await prepareNativePlugin(session.cli.binDir);
  const start = await startTimes(plugin.dir);
  const stacks: Record<Side, TestStack> = {
    native: await session.stack({
      program: yamlOrg(path.join(OUT_DIR, "native-plugin-program")),
      stackName: "native",
      env: { ...plugin.env, ...STACK_ENV },
      timeoutMs: 3_600_000,
    }),
    dynamic: await session.orgTree({
      stackName: "dynamic",
      mode: "irv",
      per: SIZE,
      env: STACK_ENV,
      timeoutMs: 3_600_000,
    }),
  };
  await plugin.install(stacks.native);
  const state: Record<Side, StateSize> = {
    native: { perResource: 0, parts: {} as StateSize["parts"] },
    dynamic: { perResource: 0, parts: {} as StateSize["parts"] },
  };
  const samples = await timeSteps<(typeof STEPS)[number], Side, Measurement>({
    rounds: ROUNDS,
    steps: STEPS,
    sides: SIDES,
    run: async (step, side, round) => {
      const { result, ...m } = await session.measure(() => step.run(stacks[side], round));
      if (step.key === "up-create") state[side] = await stateBytesPerResource(stacks[side]);
      return m;
    },
  });
  // The emulator's request count per step (data-source lookups included), of the last round.
  const calls = (key: string, side: Side) => samples[key]?.[side].at(-1)?.calls.total ?? 0;
  const compared = compareSides(samples, STEPS, "native", "dynamic");
  const rows = STEPS.map((step, i) => {
    const r = compared.steps[i] as SideRatio;
    return [
      step.label,
      ms(r.a),
      ms(r.b),
      times(r.ratio),
      `${calls(step.key, "native")} / ${calls(step.key, "dynamic")}`,
    ];
  });
  const totals = compared.total;
  rows.push(["**all six steps**", ms(totals.a), ms(totals.b), times(totals.ratio), ""]);
  const ratio = state.native.perResource / state.dynamic.perResource;
  const slower = compared.steps.flatMap((r, i) => (r.ratio > 1 ? [STEPS[i]?.label ?? ""] : []));
  const goals = {
    "native no slower in all six steps": totals.a <= totals.b,
    "native ≤ 1.00× in each step": slower.length === 0,
    "state per resource ≤ 0.5×": ratio <= 0.5,
  };
  const markdown = [
    "## 7. Native plugin vs dynamic providers",
    "",
    `${RESOURCES} resources (${SIZE} groups in a tree of fan-out 4, ${SIZE} identities, ${SIZE} role bindings): a Pulumi YAML`,
    "program on pulumi-resource-irv (installed from its tarball) versus test/e2e/fixtures/org-tree-program on the dynamic",
    "providers, same emulator, same steps, alternating which side goes first. Wall time of each command (median); API calls",
    "are the emulator's request count per step (data-source lookups included), native / dynamic.",
    CHECKPOINTS === "final"
      ? "Both stacks ran with `PULUMI_SKIP_CHECKPOINTS=true` (the backend's rewrite of the whole state after every step is the same for both sides and grows with the square of the stack). Goal ≤ 1.00× in each step."
      : "Both stacks wrote every checkpoint (the backend's default). Goal ≤ 1.00× in each step.",
    `${ROUNDS} round(s).${slower.length > 0 ? ` Slower than the dynamic providers: ${slower.join(", ")}.` : ""}`,
    "",
    table(["step", "native plugin", "dynamic providers", "ratio", "API calls"], rows),
    "",
    `State per resource after the create: native ${bytes(state.native.perResource)}, dynamic ${bytes(state.dynamic.perResource)} (${times(ratio)}; goal ≤ 0.5×), by part (bytes of the JSON of each top-level field, averaged):`,
    "",
    table(
      ["part", "native plugin", "dynamic providers"],
      (Object.keys(state.native.parts) as StatePart[]).map((part) => [
        part,
        bytes(state.native.parts[part]),
        bytes(state.dynamic.parts[part]),
      ]),
    ),
    "",
    "Plugin start, spawn to port printed (median of 7, alternating): the plugin's bundle next to one of the same",
    "entry that also loads the whole package (the TypeScript classes and `@pulumi/pulumi`'s root), as it did before",
    "its imports were narrowed to the gRPC server, the stubs, the kind table and the client.",
    "",
    table(
      ["bundle", "bytes", "ready"],
      [
        ["pulumi-resource-irv.mjs", bytes(start.size.plugin), ms(median(start.ready.plugin))],
        ["with the whole package", bytes(start.size.whole), ms(median(start.ready.whole))],
        [
          "ratio",
          times(start.size.plugin / start.size.whole),
          times(median(start.ready.plugin) / median(start.ready.whole)),
        ],
      ],
    ),
  ].join("\n");
  session.save({ markdown, goals, data: { samples, state, start } });
});
