// CLI start: `pulumi-irv --help`, `--version` and a usage error, start to exit, beside `node -e 0`.
//
// Each command is a plain process of the built bin (dist/provider/cli/main.js) timed from spawn to
// exit, with its CPU (user + system, read by the process itself as it exits: every side carries
// the same one-line exit hook, `node -e 0` included) and peak memory. Sides, in alternating order
// per round:
//   node -e 0               Node's own start: the floor
//   --help                  the commands' list
//   --version               the package's version
//   access-review bad flag  `access-review --stak dev`: a usage error, exit 2
//   automation api          `import("@pulumi/pulumi/automation")` alone: what every command paid
//                           before issue 40 (the bin loaded it at start), for scale
// Goals: each CLI side ≤ 300 ms and ≤ 8× the CPU of `node -e 0` (medians).
//
// Run: npm run bench -- cli-start
// Options: --rounds=N (IRV_BENCH_ROUNDS, default 15).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  bytes,
  median,
  ms,
  numberOption,
  progress,
  ROOT,
  runBench,
  table,
  timeSteps,
  times,
} from "./support/index.ts";

const ROUNDS = numberOption("rounds", "IRV_BENCH_ROUNDS", 15);
const MAIN = path.join(ROOT, "dist", "provider", "cli", "main.js");
const MAX_MS = 300;
const MAX_CPU = 8;

type Side = "node -e 0" | "--help" | "--version" | "access-review bad flag" | "automation api";
const SIDES: Record<Side, { args: string[]; exit: number }> = {
  "node -e 0": { args: ["-e", "0"], exit: 0 },
  "--help": { args: [MAIN, "--help"], exit: 0 },
  "--version": { args: [MAIN, "--version"], exit: 0 },
  "access-review bad flag": { args: [MAIN, "access-review", "--stak", "dev"], exit: 2 },
  "automation api": {
    args: ["--input-type=module", "-e", 'await import("@pulumi/pulumi/automation/index.js")'],
    exit: 0,
  },
};
const CLI_SIDES: Side[] = ["--help", "--version", "access-review bad flag"];

// Written by the process itself as it exits: its whole CPU (Node's start included) and peak RSS.
const EXIT_HOOK = `data:text/javascript,${encodeURIComponent(
  'import{writeFileSync}from"node:fs";process.on("exit",()=>{const c=process.cpuUsage();writeFileSync(process.env.CLI_START_USAGE,JSON.stringify({cpuMs:(c.user+c.system)/1000,rssBytes:process.resourceUsage().maxRSS*1024}))});',
)}`;

interface Sample {
  durationMs: number;
  cpuMs: number;
  rssBytes: number;
}

const dir = mkdtempSync(path.join(tmpdir(), "cli-start-"));

function run(side: Side): Promise<Sample> {
  const { args, exit } = SIDES[side];
  const usage = path.join(dir, "usage.json");
  rmSync(usage, { force: true });
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", EXIT_HOOK, ...args], {
    cwd: ROOT,
    env: { ...process.env, CLI_START_USAGE: usage },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => {
    stderr += b.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      const durationMs = performance.now() - started;
      if (code !== exit) return reject(new Error(`${side} exited ${code} (expected ${exit}): ${stderr}`));
      const u = JSON.parse(readFileSync(usage, "utf8")) as { cpuMs: number; rssBytes: number };
      resolve({ durationMs, ...u });
    });
  });
}

await runBench({ pulumi: false, emulator: false }, async (session) => {
  const load = session.machine.loadAverage;
  progress(`cli start: ${ROUNDS} rounds (load average ${load})`);
  const sides = Object.keys(SIDES) as Side[];
  const samples = (
    await timeSteps({
      rounds: ROUNDS,
      steps: [{ key: "start" }],
      sides,
      run: (_step, side) => run(side),
      note: (s) => `cpu ${ms(s.cpuMs)}`,
    })
  ).start as Record<Side, Sample[]>;
  rmSync(dir, { recursive: true, force: true });
  const med = (side: Side, f: (s: Sample) => number) => median(samples[side].map(f));
  const wall = (side: Side) => med(side, (s) => s.durationMs);
  const cpu = (side: Side) => med(side, (s) => s.cpuMs);
  const floor = "node -e 0" as const;
  const rows = sides.map((side) => [
    `\`${side === floor || side === "automation api" ? side : `pulumi-irv ${side}`}\``,
    ms(wall(side)),
    `${ms(Math.min(...samples[side].map((s) => s.durationMs)))} – ${ms(Math.max(...samples[side].map((s) => s.durationMs)))}`,
    times(wall(side) / wall(floor)),
    ms(cpu(side)),
    times(cpu(side) / cpu(floor)),
    bytes(med(side, (s) => s.rssBytes)),
  ]);
  const goals = Object.fromEntries(
    CLI_SIDES.flatMap((side) => [
      [`${side} ≤ ${MAX_MS} ms`, wall(side) <= MAX_MS],
      [`${side} CPU ≤ ${MAX_CPU}× node -e 0`, cpu(side) / cpu(floor) <= MAX_CPU],
    ]),
  );
  const met = Object.values(goals).every(Boolean);
  const markdown = [
    "## CLI start: pulumi-irv --help, --version and a usage error beside node -e 0 (bench/cli-start.ts)",
    "",
    `\`npm run bench -- cli-start\` (${ROUNDS} rounds, alternating order; 1-minute load average ${load} at the start, on a`,
    "machine shared with other work). Each command is a plain process of the built bin timed from spawn to exit",
    "(median of the rounds); CPU is user + system as the process reads it when it exits (the same exit hook on every",
    "side), memory its peak RSS. `automation api` is `@pulumi/pulumi/automation` loaded alone: what every command",
    "paid at start before issue 40, for scale.",
    "",
    table(["command", "median", "min–max", "÷ node -e 0", "CPU", "CPU ÷ node -e 0", "peak RSS"], rows),
    "",
    `Goals: each of \`--help\`, \`--version\` and the usage error ≤ ${MAX_MS} ms and ≤ ${MAX_CPU}× the CPU of \`node -e 0\`${met ? " (met)" : " (**not met**)"}: ${CLI_SIDES.map((s) => `${s} ${ms(wall(s))}, ${times(cpu(s) / cpu(floor))} CPU`).join("; ")}.`,
  ].join("\n");
  session.save({
    markdown,
    goals,
    data: { rounds: ROUNDS, load, samples },
  });
});
