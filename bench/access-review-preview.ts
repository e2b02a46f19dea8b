// Access review ÷ the `pulumi preview` it runs: a real 3,000-resource stack with a 50-binding change.
//
// What a pipeline waits for, side by side in one run. The org-tree program
// (test/e2e/fixtures/org-tree-program, mode irv: groups in a tree of fan-out 4, as many identities,
// one `viewer` binding each) is brought up against the in-process emulator with one `pulumi up` (with
// PULUMI_SKIP_CHECKPOINTS, as bench/scale.ts does); its config then adds CHANGE bindings with roles
// "viewer,owner" (the bindings past the identities' count take `owner`): CHANGE risky grants, never
// applied. Per round, in alternating order, each a plain process timed from spawn to exit:
//   preview         `pulumi preview` (the diff display a pipeline prints)
//   preview --json  `pulumi preview --json` (what the review runs, so the like-for-like divisor)
//   review          `pulumi-irv access-review --stack S --cwd DIR --format markdown`
//   review --live   the same with `--live` (every binding in the subtrees the stack touches)
// and, to say where the review's time beyond its preview goes, the parts it adds, timed alike:
//   cli start       `pulumi-irv --help`: Node's start and the CLI's imports, nothing run
//   pulumi calls    the other `pulumi` commands the review runs besides its preview (stack export,
//                   config --json --show-secrets: plain processes since issue 40, no Automation API
//                   and no `pulumi version`), one after the
//                   other: the review runs them while its preview runs, so they cost it CPU, and
//                   wall time only where they outlast the preview or the cores are busy
// Reported: the medians, review ÷ preview --json (goal ≤ 1.05×, issue 40) and ÷ preview, --live ÷ both, the
// API requests of each command by route (the --live list requests among them), CPU per process
// (bench/support/process-sampler.ts) and the review process's peak RSS. The review's own cost on a
// synthetic stack, without the CLI processes: bench/access-review.ts.
//
// Run: npm run bench -- access-review-preview
// Only when named: a 3,000-resource stack, about 12 minutes on 2 shared cores (3 rounds)
// Options: --size=N (IRV_BENCH_REVIEW_SIZE, default 3000 resources, rounded down to a multiple of 3),
// --change=N (IRV_BENCH_REVIEW_CHANGE, 50 owner bindings, at most size/3), --rounds=N
// (IRV_BENCH_ROUNDS, 3). Smoke: --size=150 --rounds=1.
import type { CommandResult, TestStack } from "../test/e2e/harness/index.ts";
import { runOpsCli } from "../test/e2e/support/ops-cli.ts";
import type { Measurement, Role } from "./support/index.ts";
import {
  bytes,
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

const PER = Math.max(1, Math.floor(numberOption("size", "IRV_BENCH_REVIEW_SIZE", 3000) / 3));
const SIZE = 3 * PER;
const CHANGE = numberOption("change", "IRV_BENCH_REVIEW_CHANGE", 50);
const ROUNDS = numberOption("rounds", "IRV_BENCH_ROUNDS", 3);
const GOAL = 1.05;
if (CHANGE > PER)
  throw new Error(
    `--change (IRV_BENCH_REVIEW_CHANGE) must be at most size/3 (${PER}): each added binding gives one identity its second role`,
  );

type Side = "preview" | "preview --json" | "review" | "review --live" | "cli start" | "pulumi calls";
const SIDES: readonly Side[] = [
  "preview",
  "preview --json",
  "review",
  "review --live",
  "cli start",
  "pulumi calls",
];
/** The bindings list: the only route `--live` adds. */
const LIVE_ROUTE = "GET /iam/v2/roleBindings";
/** One measured command, with the CPU and peak memory of its processes and what it printed. */
type Sample = Measurement & Required<Pick<Measurement, "usage">> & { stdout: string };

/** `pulumi-irv <args>` as a user runs it, timed from spawn to exit; a failure stops the run. */
async function opsCli(stack: TestStack, args: readonly string[]): Promise<CommandResult> {
  const { value, durationMs } = await timed(() => runOpsCli([...args], { env: stack.env }));
  if (value.exitCode !== 0)
    throw new Error(`pulumi-irv ${args.join(" ")} exited with ${value.exitCode}: ${value.stderr.trim()}`);
  return { args: [...args], ...value, durationMs };
}

function review(stack: TestStack, extra: readonly string[]): Promise<CommandResult> {
  const args = ["access-review", "--stack", stack.stackName, "--cwd", stack.projectDir];
  return opsCli(stack, [...args, "--format", "markdown", ...extra]);
}

/** The `pulumi` commands the review runs besides its preview, in its order. */
async function pulumiCalls(stack: TestStack): Promise<CommandResult> {
  const s = ["--stack", stack.stackName];
  const { durationMs } = await timed(async () => {
    for (const args of [
      ["stack", "export", ...s],
      ["config", "--json", "--show-secrets", ...s],
    ])
      await stack.run(args);
  });
  return { args: ["(pulumi calls)"], exitCode: 0, stdout: "", stderr: "", durationMs };
}

function run(stack: TestStack, side: Side): Promise<CommandResult> {
  const preview = (json: string[]) => stack.run(["preview", ...json, "--stack", stack.stackName]);
  if (side === "preview") return preview([]);
  if (side === "preview --json") return preview(["--json"]);
  if (side === "cli start") return opsCli(stack, ["--help"]);
  if (side === "pulumi calls") return pulumiCalls(stack);
  return review(stack, side === "review --live" ? ["--live"] : []);
}

/** The preview's change summary, checked: the change is CHANGE creates and nothing else. */
function checkChange(previewJson: string): Record<string, number> {
  const summary = (JSON.parse(previewJson) as { changeSummary?: Record<string, number> }).changeSummary ?? {};
  const changed = Object.entries(summary).filter(([op]) => op !== "same");
  if (changed.length !== 1 || summary.create !== CHANGE)
    throw new Error(`the change should be ${CHANGE} creates, the preview says ${JSON.stringify(summary)}`);
  return summary;
}

await runBench({}, async (session) => {
  const loads: number[] = [session.machine.loadAverage];
  progress(
    `access review ÷ preview: ${SIZE} resources, ${CHANGE} owner bindings added, ${ROUNDS} round(s) (load average ${session.machine.loadAverage})`,
  );
  const stack = await session.orgTree({
    stackName: "review",
    mode: "irv",
    prefix: "rv",
    per: PER,
    timeoutMs: 3_600_000,
    env: { PULUMI_SKIP_CHECKPOINTS: "true" },
    // The emulator is in memory: its objects go with it.
    destroy: false,
  });
  const setup = await stack.run(["up", "--yes", "--skip-preview", "--stack", stack.stackName]);
  progress(`up of ${SIZE} resources: ${ms(setup.durationMs)}`);
  await stack.setConfig({ bindings: String(PER + CHANGE), roles: "viewer,owner" });

  // Once untimed: the change is what it should be, and the review reads it (and warms the caches).
  const summary = checkChange((await stack.run(["preview", "--json", "--stack", stack.stackName])).stdout);
  const warm = await review(stack, ["--live"]);
  const headline = /^\*\*(.+?)\.?\*\*$/m.exec(warm.stdout)?.[1] ?? "(no summary line)";
  const liveLine = /read live: ([^)]*)\)/.exec(warm.stdout)?.[1] ?? "(no live line)";
  progress(`review: ${headline}; read live: ${liveLine}`);

  const samples = await timeSteps({
    rounds: ROUNDS,
    steps: [{ key: "change" }],
    sides: SIDES,
    run: async (_step, side) => {
      const { result, ...m } = await session.measure(() => run(stack, side), { processes: true });
      loads.push(m.loadAverage);
      return { ...(m as Sample), stdout: result.stdout };
    },
    note: (s) => `${s.calls.total} requests, load ${s.loadAverage}`,
  }).then((s) => s.change as Record<Side, Sample[]>);

  const med = (side: Side, f: (s: Sample) => number) => median(samples[side].map(f));
  const time = (side: Side) => med(side, (s) => s.durationMs);
  const cpu = (side: Side, ...roles: Role[]) =>
    med(side, (s) => roles.reduce((n, r) => n + s.usage[r].cpuMs, 0));
  const ratio = time("review") / time("preview --json");
  const ALL: Role[] = ["engine", "language host", "program", "provider", "other"];
  const cpuRatio = cpu("review", ...ALL) / cpu("preview --json", ...ALL);
  /** Each round's ratio to that round's `preview --json`, and their median. */
  const roundRatios = (side: Side) =>
    samples[side].map((s, i) => s.durationMs / (samples["preview --json"][i]?.durationMs ?? Number.NaN));
  const perRound = (side: Side) =>
    `${roundRatios(side).map(times).join(", ")} (median ${times(median(roundRatios(side)))})`;
  const liveRatio = time("review --live") / time("preview --json");
  const liveRequests = med("review --live", (s) => s.calls.byRoute[LIVE_ROUTE] ?? 0);
  const routes = (side: Side) =>
    Object.entries(samples[side][0]?.calls.byRoute ?? {})
      .map(([route, n]) => `${route} ×${n}`)
      .join(", ") || "none";
  const ownProcess = (side: Side) => side.startsWith("review") || side === "cli start";
  const rows = SIDES.map((side) => {
    const t = samples[side].map((s) => s.durationMs);
    return [
      `\`${side}\``,
      ms(time(side)),
      t.length > 1 ? `${ms(Math.min(...t))} – ${ms(Math.max(...t))}` : "–",
      times(time(side) / time("preview --json")),
      times(time(side) / time("preview")),
      ms(cpu(side, "engine")),
      ms(cpu(side, "language host", "program")),
      ms(cpu(side, "provider")),
      ms(cpu(side, ...ALL)),
      ownProcess(side) ? ms(cpu(side, "other")) : "–",
      ownProcess(side) ? bytes(med(side, (s) => s.usage.other.peakRssBytes)) : "–",
      routes(side),
    ];
  });
  const loadText = `${Math.min(...loads)}–${Math.max(...loads)}`;
  const met = ratio <= GOAL;
  const extra = time("review") - time("preview --json");
  const markdown = [
    `## Access review ÷ its preview: ${SIZE} resources, a ${CHANGE}-binding change (bench/access-review-preview.ts)`,
    "",
    `\`npm run bench -- access-review-preview\` (${ROUNDS} round${ROUNDS > 1 ? "s" : ""}, alternating order; 1-minute load`,
    `average ${loadText} during the run, on a machine shared with other work). A real stack of`,
    `\`test/e2e/fixtures/org-tree-program\` (${PER} groups in a tree of fan-out 4, ${PER} identities, ${PER} \`viewer\``,
    `bindings) up against the in-process emulator (setup up ${ms(setup.durationMs)}, with \`PULUMI_SKIP_CHECKPOINTS\`); the`,
    `change adds ${CHANGE} \`owner\` bindings (preview: ${JSON.stringify(summary)}); the review says "${headline}".`,
    "Each command is a plain process timed from spawn to exit (median of the rounds), as a pipeline runs",
    "it. The review runs `pulumi preview --json` itself (plus `stack export` and `config --json",
    "--show-secrets` beside it, and the roles list; its own modules load while the preview runs), so",
    "`preview --json` is its like-for-like divisor; plain `preview` is what a pipeline without the review",
    "prints. CPU from /proc while each command ran (bench/support/process-sampler.ts): engine = every",
    "`pulumi` process, review = the `pulumi-irv` node process; API requests of the first round.",
    "",
    table(
      [
        "command",
        "median",
        "min–max",
        "÷ preview --json",
        "÷ preview",
        "engine CPU",
        "program CPU",
        "provider CPU",
        "all CPU",
        "review CPU",
        "review peak RSS",
        "API requests",
      ],
      rows,
    ),
    "",
    `Review ÷ its \`pulumi preview --json\`: **${times(ratio)}** (goal ≤ ${GOAL.toFixed(2)}×${met ? ", met" : ", **not met**"}); ÷ plain`,
    `\`pulumi preview\`: ${times(time("review") / time("preview"))}. With \`--live\`: ${times(liveRatio)} of \`preview --json\`,`,
    `${liveRequests} list requests (${LIVE_ROUTE}, 200 a page; the review's own count: ${liveLine}).`,
    "",
    `Per round (the two sides' runs of one round are close in time): review ÷ \`preview --json\` ${perRound("review")}; \`review --live\` ÷ \`preview --json\` ${perRound("review --live")}.`,
    `All CPU (every process of the command, the in-process emulator's aside) is for reference: it too grows with the machine's contention, by more than the review adds (review ÷ \`preview --json\` by CPU: ${times(cpuRatio)}).`,
    "",
    `The review's ${ms(extra)} beyond its preview, and what it adds (medians): the CLI's start (\`pulumi-irv`,
    `--help\`: Node and the CLI's imports) ${ms(time("cli start"))}; the other \`pulumi\` commands it runs, one after the`,
    `other ${ms(time("pulumi calls"))} (the review runs them while its preview runs: they cost it wall time only where`,
    "the cores are busy); the rest is the roles list, the review and the comment.",
  ].join("\n");
  session.save({
    markdown,
    goals: { [`review ≤ ${GOAL.toFixed(2)}× its preview --json`]: met },
    data: {
      size: SIZE,
      change: CHANGE,
      rounds: ROUNDS,
      setupUpMs: setup.durationMs,
      summary,
      headline,
      liveLine,
      loads,
      ratio,
      liveRatio,
      cpuRatio,
      roundRatios: { review: roundRatios("review"), live: roundRatios("review --live") },
      liveRequests,
      extraMs: extra,
      samples: Object.fromEntries(
        SIDES.map((side) => [
          side,
          samples[side].map(({ stdout, ...s }) => ({ ...s, stdoutChars: stdout.length })),
        ]),
      ),
    },
  });
});
