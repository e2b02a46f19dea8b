// Drift ÷ `pulumi refresh --preview-only`: a real 3,000-resource stack changed by hand.
//
// What a scheduled drift check waits for, and what it asks of the API, side by side in one run. The
// org-tree program (test/e2e/fixtures/org-tree-program, mode irv: groups in a tree of fan-out 4, as
// many identities, one `viewer` binding each) is brought up against the in-process emulator with one
// `pulumi up` (PULUMI_SKIP_CHECKPOINTS, as bench/scale.ts does); then, through the API and outside
// the stack, EDITS group descriptions are edited, EDITS bindings deleted, and EDITS `owner` bindings
// and EDITS groups made below the stack's groups. Per round, in alternating order, each a plain
// process timed from spawn to exit:
//   refresh   `pulumi refresh --preview-only` (what the engine offers: one read per resource; it
//             sees the edits and the deletes, never the objects made outside the stack)
//   drift     `pulumi-irv drift --format json` (lists, pages of 200; every kind of finding)
// Reported: the medians, drift ÷ refresh in wall time (goal ≤ 0.5×) and in API requests (goal
// ≤ 0.1×), the requests of each by route, and that drift found every change made by hand.
//
// Run: npm run bench -- drift
// Only when named: a 3,000-resource stack, about 10 minutes on 2 shared cores (3 rounds)
// Options: --size=N (IRV_BENCH_DRIFT_SIZE, default 3000 resources, rounded down to a multiple of 3),
// --edits=N (IRV_BENCH_DRIFT_EDITS, 5 of each change), --rounds=N (IRV_BENCH_ROUNDS, 3). Smoke:
// --size=150 --rounds=1.
import type { DriftJson } from "../provider/cli/drift-render.ts";
import type { CommandResult, TestStack } from "../test/e2e/harness/index.ts";
import { runOpsCli } from "../test/e2e/support/ops-cli.ts";
import type { Measurement } from "./support/index.ts";
import {
  median,
  ms,
  numberOption,
  progress,
  runBench,
  table,
  timed,
  timeSteps,
  times,
} from "./support/index.ts";

const PER = Math.max(4, Math.floor(numberOption("size", "IRV_BENCH_DRIFT_SIZE", 3000) / 3));
const SIZE = 3 * PER;
const EDITS = numberOption("edits", "IRV_BENCH_DRIFT_EDITS", 5);
const ROUNDS = numberOption("rounds", "IRV_BENCH_ROUNDS", 3);
const GOALS = { wall: 0.5, requests: 0.1 };
if (EDITS * 2 > PER) throw new Error(`--edits (IRV_BENCH_DRIFT_EDITS) must be at most size/6 (${PER / 2})`);

type Side = "refresh" | "drift";
const SIDES: readonly Side[] = ["refresh", "drift"];
type Sample = Measurement & { stdout: string };

async function drift(stack: TestStack): Promise<CommandResult> {
  const args = ["drift", "--stack", stack.stackName, "--cwd", stack.projectDir, "--format", "json"];
  const { value, durationMs } = await timed(() => runOpsCli(args, { env: stack.env }));
  if (value.exitCode !== 0)
    throw new Error(`pulumi-irv drift exited with ${value.exitCode}: ${value.stderr.trim()}`);
  return { args, ...value, durationMs };
}

const run = (stack: TestStack, side: Side): Promise<CommandResult> =>
  side === "drift"
    ? drift(stack)
    : // The harness skips confirmations (as --yes), which the CLI refuses beside --preview-only.
      stack.run(["refresh", "--preview-only", "--stack", stack.stackName], {
        env: { PULUMI_SKIP_CONFIRMATIONS: "false" },
      });

await runBench({}, async (session) => {
  const loads: number[] = [session.machine.loadAverage];
  progress(
    `drift ÷ refresh --preview-only: ${SIZE} resources, ${EDITS} of each change by hand, ${ROUNDS} round(s) (load average ${session.machine.loadAverage})`,
  );
  const stack = await session.orgTree({
    stackName: "drift",
    mode: "irv",
    prefix: "dr",
    per: PER,
    timeoutMs: 3_600_000,
    env: { PULUMI_SKIP_CHECKPOINTS: "true" },
    // The emulator is in memory: its objects go with it.
    destroy: false,
  });
  const setup = await stack.run(["up", "--yes", "--skip-preview", "--stack", stack.stackName]);
  progress(`up of ${SIZE} resources: ${ms(setup.durationMs)}`);

  // The changes made by hand, below the stack's top group (its groups are dr-g-000…).
  const client = await session.client();
  const org = session.emu.orgUid;
  const groups = (await client.groups.collectParallel({ descendantsOf: org })).filter((g) =>
    g.name.startsWith("dr-g-"),
  );
  const bindings = await client.roleBindings.collectParallel({ descendantsOf: org });
  const owner = (await client.roles.list({ name: "owner" })).items[0];
  if (owner === undefined) throw new Error("the emulator has no owner role");
  const sorted = groups.sort((a, b) => a.name.localeCompare(b.name));
  for (let i = 1; i <= EDITS; i++) {
    const g = sorted[i] ?? sorted[0];
    if (g === undefined) throw new Error("the stack made no groups");
    await client.groups.update(
      g.uid,
      { description: `edited by hand ${i}` },
      { updateMask: ["description"] },
    );
    await client.groups.create(g.uid, { name: `by-hand-${i}` });
    const b = bindings[i];
    if (b === undefined) throw new Error("the stack made too few bindings");
    await client.roleBindings.delete(b.uid);
    // The service binds only an identity of the binding's group or of a group above it.
    const other = bindings.find((x) => {
      const home = x.identity.uid.slice(0, x.identity.uid.lastIndexOf("/"));
      return g.uid === home || g.uid.startsWith(`${home}/`);
    });
    if (other === undefined) throw new Error(`no identity of the stack at or above ${g.name}`);
    await client.roleBindings.create(g.uid, { identityUid: other.identity.uid, roleUid: owner.uid });
  }
  const expected = { changed: EDITS, deleted: EDITS, unmanaged: 2 * EDITS };

  // Once untimed: drift finds every change (and warms the caches).
  const warm = JSON.parse((await drift(stack)).stdout) as DriftJson;
  const count = (s: string) => warm.findings.filter((f) => f.state === s).length;
  const found = { changed: count("changed"), deleted: count("deleted"), unmanaged: count("unmanaged") };
  const complete = JSON.stringify(found) === JSON.stringify(expected);
  progress(`drift: ${warm.summary} (expected ${JSON.stringify(expected)})`);

  const samples = await timeSteps({
    rounds: ROUNDS,
    steps: [{ key: "drift" }],
    sides: SIDES,
    run: async (_step, side) => {
      const { result, ...m } = await session.measure(() => run(stack, side));
      loads.push(m.loadAverage);
      return { ...(m as Sample), stdout: result.stdout };
    },
    note: (s) => `${s.calls.total} requests, load ${s.loadAverage}`,
  }).then((s) => s.drift as Record<Side, Sample[]>);

  const time = (side: Side) => median(samples[side].map((s) => s.durationMs));
  const requests = (side: Side) => median(samples[side].map((s) => s.calls.total));
  const wall = time("drift") / time("refresh");
  const calls = requests("drift") / requests("refresh");
  const routes = (side: Side) =>
    Object.entries(samples[side][0]?.calls.byRoute ?? {})
      .map(([route, n]) => `${route} ×${n}`)
      .join(", ") || "none";
  const loadText = `${Math.min(...loads)}–${Math.max(...loads)}`;
  const met = { wall: wall <= GOALS.wall, requests: calls <= GOALS.requests };
  const markdown = [
    `## Drift ÷ refresh --preview-only: ${SIZE} resources (bench/drift.ts)`,
    "",
    `\`npm run bench -- drift\` (${ROUNDS} round${ROUNDS > 1 ? "s" : ""}, alternating order; 1-minute load average ${loadText}`,
    "during the run, on a machine shared with other work: figures measured on a busy machine). A real",
    `stack of \`test/e2e/fixtures/org-tree-program\` (${PER} groups in a tree of fan-out 4, ${PER} identities, ${PER}`,
    `\`viewer\` bindings) up against the in-process emulator (setup up ${ms(setup.durationMs)}); then, by hand, ${EDITS}`,
    `descriptions edited, ${EDITS} bindings deleted, ${EDITS} \`owner\` bindings and ${EDITS} groups made below the`,
    "stack's groups. Each command is a plain process timed from spawn to exit (median of the rounds);",
    "API requests from the emulator's stats.",
    "",
    table(
      ["command", "median", "÷ refresh", "API requests", "÷ refresh", "requests by route (first round)"],
      SIDES.map((side) => [
        side === "drift" ? "`pulumi-irv drift`" : "`pulumi refresh --preview-only`",
        ms(time(side)),
        times(time(side) / time("refresh")),
        String(requests(side)),
        times(requests(side) / requests("refresh")),
        routes(side),
      ]),
    ),
    "",
    `Drift ÷ refresh: **${times(wall)}** in wall time (goal ≤ ${GOALS.wall}×${met.wall ? ", met" : ", **not met**"}), **${times(calls)}** in`,
    `API requests (goal ≤ ${GOALS.requests}×${met.requests ? ", met" : ", **not met**"}). Drift found ${JSON.stringify(found)} of`,
    `${JSON.stringify(expected)} made by hand${complete ? " (every one)" : " (**not every one**)"}; a refresh sees the edits and`,
    "the deletes only, never an object made outside the stack.",
  ].join("\n");
  session.save({
    markdown,
    goals: {
      [`drift ≤ ${GOALS.wall}× refresh --preview-only in wall time`]: met.wall,
      [`drift ≤ ${GOALS.requests}× refresh --preview-only in API requests`]: met.requests,
      "drift reports every change made by hand": complete,
    },
    data: {
      size: SIZE,
      edits: EDITS,
      rounds: ROUNDS,
      setupUpMs: setup.durationMs,
      loads,
      wall,
      calls,
      found,
      expected,
      samples: Object.fromEntries(
        SIDES.map((side) => [
          side,
          samples[side].map(({ stdout, ...s }) => ({ ...s, stdoutChars: stdout.length })),
        ]),
      ),
    },
  });
});
