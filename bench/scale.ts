// Benchmark 6 (issue 15): pulumi-irv at the size of a real organization, under rate limits.
//
// One program shape (test/e2e/fixtures/org-tree-program: groups in a tree of fan-out 4, as
// many identities, as many role bindings) at two sizes, each on four stacks side by side:
//   irv        the real resources against the emulator (static token, default engine parallelism);
//   noop-full  the no-op floor: the same resources and dependencies on do-nothing dynamic providers
//              whose outputs have the keys and shapes of pulumi-irv's (the engine's cost per resource
//              grows with the properties it carries, so only this floor holds the state constant);
//   noop-http  the HTTP floor: the same, on providers that each make the one request pulumi-irv
//              makes (same method and path, undici, same headers and body size; test/e2e/fixtures/
//              org-tree-program/http-floor.js) to a server that answers at once
//              (bench/support/http-floor-server.ts): what any provider calling an API pays, so that
//              pulumi-irv ÷ it is pulumi-irv's own code and the service's time;
//   noop       the same on do-nothing providers that return only a uid and a createTime (reported
//              for reference: the engine's cost of the inputs alone).
// Each command runs as a plain CLI process (`pulumi up|refresh|destroy --yes --skip-preview`, no
// event log) and is timed from spawn to exit: what a pipeline waits for.
// Per round: up (create) → refresh → destroy at both sizes, alternating which stack goes first (the
// refresh at SIZE REFRESHES times: it changes nothing, and its 5 % goal needs more samples than
// rounds give on a machine whose speed drifts by a third from one run to the next); then
// an up of the small size with LATENCY ms on every request; then an up of the large size under a
// per-caller rate limit of RATE requests per second.
//
//   a. up / refresh / destroy at SIZE vs the no-op floor                 goal ≤ 1.10× per step
//      refresh / destroy at SIZE vs the HTTP floor                       goal ≤ 1.05× each
//   b. per-resource cost at SIZE ÷ at SMALL, each vs its own no-op floor  goal ≤ 1.05
//   c. up of SMALL at LATENCY ms ÷ (critical path × LATENCY + floor up)   goal ≤ 1.3
//   d. up of SIZE under --rate-limit RATE ÷ SIZE/RATE s                    goal ≤ 1.15, 429s ≤ 5 %
//      (and, for the limiter alone, SIZE creates sent at once through one client under that limit)
//   e. peak RSS of the dynamic-provider process at SIZE ÷ at SMALL         report (explain > 1.5)
//   f. API calls per step at SIZE vs the minimum, 429s apart               goal exactly 1.00
// Where the time goes: CPU time of each process of every command (engine, language host, program,
// provider; bench/support/process-sampler.ts) and of the in-process emulator. Inside the provider
// process, frame by frame: bench/provider-profile.ts (V8 profiles of refresh and destroy vs no-op).
//
// Run: npm run bench -- scale
// Only when named: about 10 minutes a round on 2 idle cores
// Options: --size=N (IRV_BENCH_SCALE_SIZE, default 3000 resources), --small=N (IRV_BENCH_SCALE_SMALL,
// 300), --rate=N (IRV_BENCH_RATE, 50), --latency=MS (IRV_BENCH_LATENCY, 30), --rounds=N
// (IRV_BENCH_ROUNDS, 1), --refreshes=N (IRV_BENCH_SCALE_REFRESHES, 3: refreshes at SIZE per round),
// --rate-parallel=N (IRV_BENCH_RATE_PARALLEL: the rate-limited up's
// --parallel; default the engine's), --checkpoints=final|every (IRV_BENCH_CHECKPOINTS, final). Sizes are rounded
// down to a multiple of 3. Smoke: --size=150 --small=30.
//
// Checkpoints: the file backend rewrites the whole state file after every step of an operation, so
// its cost grows with the square of the stack's size and swamps everything else at 3,000 resources
// (measured: up of 1,200 no-op resources 349 s with every checkpoint, 29 s with
// PULUMI_SKIP_CHECKPOINTS). That cost is the backend's, the same for any provider; by default every
// stack runs with PULUMI_SKIP_CHECKPOINTS=true so that the ratios measure the engine and the provider.
import path from "node:path";
import type { CommandResult, TestStack } from "../test/e2e/harness/index.ts";
import type { HttpFloorServer } from "./support/http-floor-server.ts";
import { startHttpFloorServer } from "./support/http-floor-server.ts";
import type { BenchSession, Measurement, Role } from "./support/index.ts";
import {
  bytes,
  checkpointOption,
  DATA_SOURCE_ROUTE,
  median,
  ms,
  numberOption,
  progress,
  ROOT,
  runBench,
  table,
  timed,
  timeSteps,
  times,
} from "./support/index.ts";

const per = (n: number) => Math.max(1, Math.floor(n / 3));
const SIZE = 3 * per(numberOption("size", "IRV_BENCH_SCALE_SIZE", 3000));
const SMALL = 3 * per(numberOption("small", "IRV_BENCH_SCALE_SMALL", 300));
const RATE = numberOption("rate", "IRV_BENCH_RATE", 50);
const LATENCY = numberOption("latency", "IRV_BENCH_LATENCY", 30);
const ROUNDS = numberOption("rounds", "IRV_BENCH_ROUNDS", 1);
const REFRESHES = Math.max(1, numberOption("refreshes", "IRV_BENCH_SCALE_REFRESHES", 3));
// The engine's parallelism for the rate-limited up only (0: the engine's default). Little's law: at
// RATE requests a second with P operations in flight, each operation may take at most P / RATE s,
// engine time included, before the engine rather than the limit sets the pace.
const RATE_PARALLEL =
  process.argv.some((a) => a.startsWith("--rate-parallel=")) ||
  process.env.IRV_BENCH_RATE_PARALLEL !== undefined
    ? numberOption("rate-parallel", "IRV_BENCH_RATE_PARALLEL", 1)
    : 0;
const CHECKPOINTS = checkpointOption();
const FANOUT = 4;
const GOALS = { step: 1.1, http: 1.05, linear: 1.05, latency: 1.3, rate: 1.15, share429: 0.05, rss: 1.5 };

type Mode = "irv" | "noop-full" | "noop-http" | "noop";
const MODES: readonly Mode[] = ["irv", "noop-full", "noop-http", "noop"];
/** The stack each irv figure is divided by. */
const FLOOR: Mode = "noop-full";
/** The floor that also makes pulumi-irv's HTTP request. */
const HTTP_FLOOR: Mode = "noop-http";
/** The steps measured against the HTTP floor (an up also pays the service's writes, which it does not). */
const HTTP_STEPS: readonly StepKey[] = ["refresh", "destroy"];
const HTTP_FLOOR_MODULE = path.join(ROOT, "test", "e2e", "fixtures", "org-tree-program", "http-floor.js");
type StepKey = "up" | "refresh" | "destroy";
const STEPS: readonly StepKey[] = ["up", "refresh", "destroy"];
/** One measured command, with the CPU and peak memory of its processes. */
type Sample = Measurement &
  Required<Pick<Measurement, "usage">> & {
    /** The requests the HTTP floor's server answered during the command (its stacks only). */
    floorRequests?: number;
  };

/** API calls (besides the data source's) a step needs at least: one per resource. */
const minimumCalls = (_step: StepKey, resources: number) => resources;

/** Longest chain of API calls in an up of the program: the deepest group, its identity, the binding. */
function criticalPath(resources: number): number {
  const groups = per(resources);
  let depth = 1;
  for (let i = groups - 1; i > 0; i = Math.floor((i - 1) / FANOUT)) depth++;
  return depth + 2;
}

/**
 * One step as a plain CLI process, timed from spawn to exit. Through the Automation API every
 * command would also write an event log that this process parses: CPU taken from the engine and the
 * provider on a two-core machine, for nothing a pipeline runs.
 */
function cliStep(stack: TestStack, step: StepKey, extra: readonly string[] = []): Promise<CommandResult> {
  return stack.run([step, "--yes", "--skip-preview", "--stack", stack.stackName, ...extra]);
}

// The HTTP floor's server outlives the session, whose close may still destroy a floor stack.
const httpFloor = await startHttpFloorServer();
try {
  await runBench({}, (session) => scale(session, httpFloor));
} finally {
  await httpFloor.close();
}

async function scale(session: BenchSession, httpFloor: HttpFloorServer): Promise<void> {
  const { emu } = session;
  const loads: number[] = [session.machine.loadAverage];
  // The HTTP floor's providers find its server, a token as long as the emulator's and their code
  // from the stack's environment (its serialized provider is only a stub, as pulumi-irv's is).
  const httpFloorEnv = {
    IRV_HTTP_FLOOR_URL: httpFloor.url,
    IRV_HTTP_FLOOR_TOKEN: emu.adminToken,
    IRV_HTTP_FLOOR_MODULE: HTTP_FLOOR_MODULE,
  };

  const stacks = new Map<string, TestStack>();
  const stackFor = async (mode: Mode, size: number): Promise<TestStack> => {
    const key = `${mode}-${size}`;
    let stack = stacks.get(key);
    if (stack === undefined) {
      stack = await session.orgTree({
        stackName: key,
        mode,
        prefix: `${mode}${size}`,
        per: per(size),
        timeoutMs: 3_600_000,
        env: {
          ...(CHECKPOINTS === "final" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
          ...(mode === HTTP_FLOOR ? httpFloorEnv : {}),
        },
      });
      stacks.set(key, stack);
    }
    return stack;
  };
  const measure = async (run: () => Promise<CommandResult>): Promise<Sample> => {
    const { result, ...m } = await session.measure(run, { processes: true });
    loads.push(m.loadAverage);
    return m as Sample;
  };
  const note = (s: Sample) =>
    s.floorRequests === undefined
      ? `${s.calls.total} calls (${s.calls.rateLimited} × 429), load ${s.loadAverage}`
      : `${s.floorRequests} requests to the HTTP floor's server, load ${s.loadAverage}`;
  const done = (label: string, s: Sample | undefined) =>
    progress(`${label}: ${ms(s?.durationMs ?? Number.NaN)} ${s ? note(s) : ""}`);

  progress(
    `scale: ${SMALL} and ${SIZE} resources, latency ${LATENCY} ms, rate limit ${RATE}/s, ${ROUNDS} round(s) (load average ${session.machine.loadAverage})`,
  );
  const started = performance.now();
  // a, b, e, f: every step at both sizes on every stack, side by side.
  const sideBySide = await timeSteps({
    rounds: ROUNDS,
    // Repeats of a step share its key, so their samples pool; the sides' order alternates between them.
    steps: [SMALL, SIZE].flatMap((size) =>
      STEPS.flatMap((step) =>
        Array.from({ length: step === "refresh" && size === SIZE ? REFRESHES : 1 }, () => ({
          key: `${step}-${size}`,
          step,
          size,
        })),
      ),
    ),
    sides: MODES,
    run: async ({ step, size }, mode) => {
      const stack = await stackFor(mode, size);
      const before = httpFloor.answered;
      const sample = await measure(() => cliStep(stack, step));
      return mode === HTTP_FLOOR ? { ...sample, floorRequests: httpFloor.answered - before } : sample;
    },
    note,
  });
  /** Samples by `<step>-<size>-<mode>`, `latency` and `rate`. */
  const samples: Record<string, Sample[]> = {};
  for (const [key, bySide] of Object.entries(sideBySide))
    for (const mode of MODES) samples[`${key}-${mode}`] = bySide[mode];
  samples.latency = [];
  samples.rate = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // c. Latency on every request, small size.
    const small = await stackFor("irv", SMALL);
    emu.setFaults(`latency=${LATENCY}`);
    try {
      samples.latency.push(await measure(() => cliStep(small, "up")));
    } finally {
      emu.setFaults("none");
    }
    done(`round ${round} up ${SMALL} at ${LATENCY} ms`, samples.latency.at(-1));
    await small.destroy();

    // d. The per-caller rate limit, large size.
    const large = await stackFor("irv", SIZE);
    emu.setRateLimit(String(RATE));
    try {
      const parallel = RATE_PARALLEL > 0 ? ["--parallel", String(RATE_PARALLEL)] : [];
      samples.rate.push(await measure(() => cliStep(large, "up", parallel)));
    } finally {
      emu.setRateLimit("none");
    }
    done(`round ${round} up ${SIZE} under ${RATE}/s`, samples.rate.at(-1));
    await large.destroy();
  }
  // d, the limiter alone: SIZE creates at once through one client (what the provider process
  // does, without the engine's pace), under the same limit.
  const client = await session.client();
  const parent = await client.groups.create(emu.orgUid, { name: "client-alone" });
  emu.setRateLimit(String(RATE));
  const alone = await session.measure(() =>
    timed(() =>
      Promise.all(
        Array.from({ length: SIZE }, (_, i) => client.groups.create(parent.uid, { name: `g-${i}` })),
      ),
    ),
  );
  const { total, rateLimited } = alone.calls;
  const clientAlone = { durationMs: alone.durationMs, total, rateLimited };
  emu.setRateLimit("none");
  progress(
    `client alone: ${SIZE} creates under ${RATE}/s in ${ms(clientAlone.durationMs)}, ${rateLimited} × 429`,
  );
  const minutes = (performance.now() - started) / 60_000;

  const med = (key: string, f: (s: Sample) => number) => median((samples[key] ?? []).map(f));
  const time = (key: string) => med(key, (s) => s.durationMs);
  const cpu = (key: string, role: Role) => med(key, (s) => s.usage[role].cpuMs);
  const goalText = (ok: boolean) => (ok ? "yes" : "**no**");

  // a. Steps at both sizes vs the floor (and the lean no-op for reference).
  const stepRows: string[][] = [];
  let stepsMet = true;
  let httpMet = true;
  for (const size of [SIZE, SMALL]) {
    for (const step of STEPS) {
      const irv = time(`${step}-${size}-irv`);
      const floor = time(`${step}-${size}-${FLOOR}`);
      const http = time(`${step}-${size}-${HTTP_FLOOR}`);
      const lean = time(`${step}-${size}-noop`);
      const ratio = irv / floor;
      const httpRatio = irv / http;
      const httpGoal = size === SIZE && HTTP_STEPS.includes(step);
      if (size === SIZE) stepsMet &&= ratio <= GOALS.step;
      if (httpGoal) httpMet &&= httpRatio <= GOALS.http;
      stepRows.push([
        `${step} ${size}`,
        ms(irv),
        ms(floor),
        times(ratio),
        size === SIZE ? goalText(ratio <= GOALS.step) : "(reference)",
        ms(http),
        times(httpRatio),
        httpGoal ? goalText(httpRatio <= GOALS.http) : "(reference)",
        `${ms(lean)} (${times(irv / lean)})`,
        ms(cpu(`${step}-${size}-irv`, "engine")),
        ms(cpu(`${step}-${size}-${FLOOR}`, "engine")),
        ms(cpu(`${step}-${size}-${HTTP_FLOOR}`, "engine")),
        ms(cpu(`${step}-${size}-irv`, "provider")),
        ms(cpu(`${step}-${size}-${FLOOR}`, "provider")),
        ms(cpu(`${step}-${size}-${HTTP_FLOOR}`, "provider")),
        ms(cpu(`${step}-${size}-irv`, "program") + cpu(`${step}-${size}-irv`, "language host")),
        ms(cpu(`${step}-${size}-${FLOOR}`, "program") + cpu(`${step}-${size}-${FLOOR}`, "language host")),
        ms(med(`${step}-${size}-irv`, (s) => s.emulatorCpuMs)),
        ms(med(`${step}-${size}-${HTTP_FLOOR}`, (s) => s.emulatorCpuMs)),
        ms(med(`${step}-${size}-${FLOOR}`, (s) => s.emulatorCpuMs)),
      ]);
    }
  }

  // b. Per-resource cost, each size against its own floor.
  const linearRows: string[][] = [];
  let linearMet = true;
  for (const step of STEPS) {
    const big = time(`${step}-${SIZE}-irv`) / time(`${step}-${SIZE}-${FLOOR}`);
    const small = time(`${step}-${SMALL}-irv`) / time(`${step}-${SMALL}-${FLOOR}`);
    const growth = big / small;
    linearMet &&= growth <= GOALS.linear;
    const perResource = (size: number, mode: Mode) => time(`${step}-${size}-${mode}`) / size;
    linearRows.push([
      step,
      `${perResource(SMALL, "irv").toFixed(1)} ms`,
      `${perResource(SIZE, "irv").toFixed(1)} ms`,
      `${perResource(SMALL, FLOOR).toFixed(1)} ms`,
      `${perResource(SIZE, FLOOR).toFixed(1)} ms`,
      times(growth),
      goalText(growth <= GOALS.linear),
    ]);
  }

  // c. Latency.
  const depth = criticalPath(SMALL);
  const latencyFloor = depth * LATENCY + time(`up-${SMALL}-${FLOOR}`);
  const latencyRatio = time("latency") / latencyFloor;
  const latencyMet = latencyRatio <= GOALS.latency;

  // d. Rate limit.
  const rateFloor = (SIZE / RATE) * 1000;
  const rateTime = time("rate");
  const rateCalls = samples.rate?.[0]?.calls;
  const share = med("rate", (s) => s.calls.rateLimited / s.calls.total);
  const rateRatio = rateTime / rateFloor;
  const engineFloor = time(`up-${SIZE}-${FLOOR}`);
  const rateMet = rateRatio <= GOALS.rate && share <= GOALS.share429;

  // e. Memory.
  const rss = (size: number) => med(`up-${size}-irv`, (s) => s.usage.provider.peakRssBytes);
  const rssOf = (size: number, mode: Mode) => med(`up-${size}-${mode}`, (s) => s.usage.provider.peakRssBytes);
  const rssRatio = rss(SIZE) / rss(SMALL);

  // f. API calls per step at SIZE.
  const callRows: string[][] = [];
  let callsExact = true;
  const callRow = (label: string, key: string, minimum: number, dsMinimum: number) => {
    for (const s of samples[key] ?? []) {
      const c = s.calls;
      const accepted = c.resource;
      const exact = accepted === minimum && c.dataSource === dsMinimum;
      callsExact &&= exact;
      const routes = Object.entries(c.byRoute)
        .filter(([route]) => route !== DATA_SOURCE_ROUTE)
        .map(([route, n]) => `${route} ×${n}`)
        .join(", ");
      callRows.push([
        label,
        String(accepted),
        String(minimum),
        times(accepted / minimum),
        `${c.dataSource} (minimum ${dsMinimum})`,
        String(c.rateLimited),
        routes,
      ]);
    }
  };
  for (const step of STEPS)
    callRow(`${step} ${SIZE}`, `${step}-${SIZE}-irv`, minimumCalls(step, SIZE), step === "up" ? 1 : 0);
  callRow(`up ${SIZE} under ${RATE}/s`, "rate", SIZE, 1);
  callRow(`up ${SMALL} at ${LATENCY} ms`, "latency", SMALL, 1);

  const roleRows = (["engine", "language host", "program", "provider"] as const).map((role) => [
    role,
    ...STEPS.flatMap((step) => [
      ms(cpu(`${step}-${SIZE}-irv`, role)),
      ms(cpu(`${step}-${SIZE}-${FLOOR}`, role)),
    ]),
    ms(cpu("rate", role)),
  ]);

  // Each refresh at SIZE against the HTTP floor's run of the same step and round, seconds apart: how
  // far one comparison strays from the pooled medians on this machine.
  const pairRatios = (samples[`refresh-${SIZE}-irv`] ?? []).map(
    (s, i) => s.durationMs / (samples[`refresh-${SIZE}-${HTTP_FLOOR}`]?.[i]?.durationMs ?? Number.NaN),
  );
  const loadText = `${Math.min(...loads)}–${Math.max(...loads)}`;
  const markdown = [
    `## 6. Scale: ${SIZE} resources under rate limits`,
    "",
    `\`npm run bench -- scale\` (${minutes.toFixed(1)} minutes, ${ROUNDS} round${ROUNDS > 1 ? "s" : ""}; 1-minute load`,
    `average ${loadText} during the run). Program \`test/e2e/fixtures/org-tree-program\` (groups in a tree`,
    `of fan-out ${FANOUT}, as many identities and role bindings) at ${SIZE} and ${SMALL} resources, against the`,
    "in-process emulator with a static token, at the engine's default parallelism, versus the floor: the",
    "same resources on do-nothing dynamic providers whose outputs have the keys and shapes of",
    "pulumi-irv's (`noop-full`: the engine's cost per resource grows with the properties it carries, as",
    "the CLI logs every property of every provider call to ~/.pulumi/logs). The lean no-op column is the",
    "same on providers that return only a uid and a createTime, for reference. Times are wall times of",
    "each CLI command run as a plain process (`pulumi <step> --yes --skip-preview`, no event log), from",
    `spawn to exit (median of the rounds; the refresh at ${SIZE}, which changes nothing, runs ${REFRESHES} time${REFRESHES > 1 ? "s" : ""} a round`,
    "and its median is of all its runs).",
    CHECKPOINTS === "final"
      ? "Every stack ran with `PULUMI_SKIP_CHECKPOINTS=true`: the file backend otherwise rewrites the whole state after every step, a cost that grows with the square of the stack (up of 1,200 no-op resources: 349 s with every checkpoint, 29 s without) and is the backend's, not the provider's. See the README's \"Large organizations\" section."
      : "Every stack ran with the file backend's default: the whole state rewritten after every step.",
    "",
    `### a. Steps vs the no-op floor (goal ≤ ${GOALS.step.toFixed(2)}× at ${SIZE}) and the HTTP floor (goal ≤ ${GOALS.http.toFixed(2)}× for ${HTTP_STEPS.join(" and ")} at ${SIZE})`,
    "",
    "Two floors, run alternately with pulumi-irv in every round. The no-op floor (`noop-full`) is the",
    "engine's cost of the program and its state: pulumi-irv ÷ it is everything the provider adds,",
    "HTTP included. The HTTP floor (`noop-http`) is the same program on do-nothing providers that each",
    "make the one request pulumi-irv makes for the operation (same method and path, undici with a",
    "keep-alive agent, the same headers and body size) to a server that answers at once: the cost of",
    "calling an API at all, which any provider pays. pulumi-irv ÷ it is pulumi-irv's own code (and",
    "the emulator's time to answer, its CPU in the last column). An up is also measured against it for",
    "reference: its floor serializes only a stub into the state, as pulumi-irv does, where the no-op",
    "floor serializes its whole provider into every resource (the program CPU columns).",
    "",
    "CPU columns: the engine (`pulumi`), the dynamic-provider process, the program with its language",
    "host, from /proc while each command ran, and the benchmark process's own CPU: the emulator with",
    "pulumi-irv, the HTTP floor's server with its floor, nothing but the harness with the no-op floor",
    "(reading the CLI's output, sampling /proc). The last column is that baseline: the emulator's own",
    "cost is its column minus it, the floor server's likewise.",
    "",
    table(
      [
        "step",
        "pulumi-irv",
        "floor (noop-full)",
        "ratio",
        "goal met",
        "HTTP floor (noop-http)",
        "ratio to it",
        "goal met",
        "lean no-op (irv ÷ it)",
        "engine CPU irv",
        "engine CPU floor",
        "engine CPU HTTP floor",
        "provider CPU irv",
        "provider CPU floor",
        "provider CPU HTTP floor",
        "program CPU irv",
        "program CPU floor",
        "emulator CPU",
        "HTTP floor server CPU",
        "harness CPU alone (noop-full)",
      ],
      stepRows,
    ),
    "",
    `The refresh at ${SIZE} ÷ the HTTP floor's run of the same repeat and round, one pair at a time (${pairRatios.length} pairs): median ${times(median(pairRatios))}, from ${times(Math.min(...pairRatios))} to ${times(Math.max(...pairRatios))}.`,
    "",
    `Requests the HTTP floor's server answered at ${SIZE} (one per resource, as pulumi-irv sends, without`,
    `its one role lookup at up): ${STEPS.map((step) => `${step} ${med(`${step}-${SIZE}-${HTTP_FLOOR}`, (s) => s.floorRequests ?? Number.NaN)}`).join(", ")}.`,
    "",
    `### b. Per-resource cost, ${SIZE} vs ${SMALL} (goal ≤ ${GOALS.linear.toFixed(2)})`,
    "",
    `Growth = (pulumi-irv ÷ floor at ${SIZE}) ÷ (pulumi-irv ÷ floor at ${SMALL}): how much more each`,
    "resource costs at the larger size once the engine's own growth (the floor columns) is taken out.",
    "",
    table(
      [
        "step",
        `irv per resource at ${SMALL}`,
        `irv per resource at ${SIZE}`,
        `floor per resource at ${SMALL}`,
        `floor per resource at ${SIZE}`,
        "growth",
        "goal met",
      ],
      linearRows,
    ),
    "",
    `### c. Up of ${SMALL} resources at ${LATENCY} ms per request (goal ≤ ${GOALS.latency.toFixed(2)})`,
    "",
    `Floor = critical path (${depth} calls: the deepest group, its identity, the binding) × ${LATENCY} ms + the`,
    `floor's up of ${SMALL} (${ms(time(`up-${SMALL}-${FLOOR}`))}). The engine runs at most 8 operations at once on`,
    "this machine (`--parallel` defaults to 4 per CPU), so the wider tree levels take several latencies.",
    "",
    table(
      ["measure", "time", "floor", "ratio", "goal met"],
      [
        [
          `up ${SMALL} at ${LATENCY} ms`,
          ms(time("latency")),
          ms(latencyFloor),
          times(latencyRatio),
          goalText(latencyMet),
        ],
      ],
    ),
    "",
    `### d. Up of ${SIZE} resources under \`--rate-limit ${RATE}\` (goal ≤ ${GOALS.rate.toFixed(2)}× of ${SIZE}/${RATE} s, 429s ≤ ${GOALS.share429 * 100} %)`,
    "",
    table(
      [
        "measure",
        "time",
        `${SIZE}/${RATE} s`,
        "ratio",
        "429s",
        "share of requests",
        `floor up ${SIZE}`,
        "goal met",
      ],
      [
        [
          `up ${SIZE}, limit ${RATE}/s`,
          ms(rateTime),
          ms(rateFloor),
          times(rateRatio),
          `${rateCalls?.rateLimited ?? "–"} of ${rateCalls?.total ?? "–"}`,
          `${(share * 100).toFixed(1)} %`,
          ms(engineFloor),
          goalText(rateMet),
        ],
        [
          `${SIZE} creates at once, one client`,
          ms(clientAlone.durationMs),
          ms(rateFloor),
          times(clientAlone.durationMs / rateFloor),
          `${clientAlone.rateLimited} of ${clientAlone.total}`,
          `${((clientAlone.rateLimited / clientAlone.total) * 100).toFixed(1)} %`,
          "–",
          "(limiter alone)",
        ],
      ],
    ),
    "",
    RATE_PARALLEL > 0
      ? `The rate-limited up ran with \`--parallel ${RATE_PARALLEL}\` (the other steps with the engine's default).`
      : "The rate-limited up ran at the engine's default parallelism.",
    "The up cannot be faster than the engine's own up of the same program on no-op providers (the",
    "floor column): when that is longer than the rate floor, the engine, not the limit, sets the pace.",
    "The second row sends the creates through one `IrvClient` without the engine, all at once: what the",
    "adaptive limiter alone achieves under the limit (the service allows a burst of one second's worth,",
    `so the floor of ${SIZE} requests is really (${SIZE} − ${RATE})/${RATE} s).`,
    "",
    `### e. Peak memory of the dynamic-provider process (report; explain above ${GOALS.rss})`,
    "",
    table(
      ["stack", `peak RSS at ${SMALL}`, `peak RSS at ${SIZE}`, "ratio"],
      [
        ["pulumi-irv", bytes(rss(SMALL)), bytes(rss(SIZE)), times(rssRatio)],
        ...(["noop-full", "noop-http", "noop"] as const).map((mode) => [
          mode,
          bytes(rssOf(SMALL, mode)),
          bytes(rssOf(SIZE, mode)),
          times(rssOf(SIZE, mode) / rssOf(SMALL, mode)),
        ]),
      ],
    ),
    "",
    `### f. API calls per step at ${SIZE} (goal exactly 1.00, 429s counted apart)`,
    "",
    table(
      [
        "command",
        "accepted calls",
        "minimum",
        "ratio",
        "data-source calls",
        "429s",
        "routes (429s included)",
      ],
      callRows,
    ),
    "",
    `### Where the time goes: CPU per process at ${SIZE}`,
    "",
    table(
      [
        "process",
        "up irv",
        "up floor",
        "refresh irv",
        "refresh floor",
        "destroy irv",
        "destroy floor",
        `up under ${RATE}/s`,
      ],
      roleRows,
    ),
  ].join("\n");

  session.save({
    markdown,
    goals: {
      steps: stepsMet,
      "HTTP floor": httpMet,
      linear: linearMet,
      latency: latencyMet,
      "rate limit": rateMet,
      "calls exact": callsExact,
    },
    data: {
      size: SIZE,
      small: SMALL,
      rate: RATE,
      latencyMs: LATENCY,
      rounds: ROUNDS,
      refreshes: REFRESHES,
      refreshPairRatios: pairRatios,
      minutes,
      loads,
      criticalPath: depth,
      clientAlone,
      samples,
    },
  });
}
