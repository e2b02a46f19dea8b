#!/usr/bin/env node
// `npm run bench [-- <names…>] [-- --flag=value…]`: builds the packages, runs the benchmarks one after the
// other (never in parallel: they measure time on a small machine) and writes bench/RESULTS.md.
//
//   engine          bench/engine-overhead.ts   engine overhead, API calls per step, state size
//   wider           bench/wider-org.ts         API calls per step and kind for an org of every IAM kind
//   data-sources    bench/data-sources.ts      10 000-item list, parallel skip-fetch vs cursor
//   provider-start  bench/provider-start.ts    module loading and plugin start
//   import-org      bench/import-org.ts        import-org of 2 000 objects and the first up of its program
//   patterns        bench/patterns.ts          a catastrophic identity pattern: JavaScript RegExp vs RE2, the STS
//   emulator        `npm run bench:emulator` if defined, else bench/emulator-*.ts (output kept as is)
//   native-plugin   bench/native-plugin.ts     the native plugin (YAML) vs the dynamic providers (only when named)
//   scale           bench/scale.ts             3,000 resources, latency, rate limit (only when named:
//                                              about 25 minutes)
//   state-backends  bench/state-backends.ts    checkpointed up of 1,200 resources, file vs PostgreSQL
//                                              backend (only when named: about 15 minutes)
//
// Without names, all of them except those run only when named. Flags (e.g. `--rounds=1`) are passed to every benchmark. Benchmarks are
// TypeScript run by Node's type stripping; bench/support/register-ts.mjs maps the repository's `.js`
// import specifiers to their `.ts` files. Each leaves a JSON result in bench/out/ (git-ignored);
// RESULTS.md is assembled from every result there and merged into the committed file section by
// section (bench/support/results-sections.ts): running one benchmark refreshes its sections only and
// keeps the others as committed, also in a fresh clone.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mergeResults } from "../bench/support/results-sections.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "bench", "out");
const hook = path.join(root, "bench", "support", "register-ts.mjs");

const OURS = [
  { name: "engine", file: "engine-overhead.ts", result: "engine-overhead" },
  { name: "wider", file: "wider-org.ts", result: "wider-org" },
  { name: "data-sources", file: "data-sources.ts", result: "data-sources" },
  { name: "provider-start", file: "provider-start.ts", result: "provider-start" },
  { name: "scale", file: "scale.ts", result: "scale", onlyWhenNamed: true },
  { name: "import-org", file: "import-org.ts", result: "import-org", onlyWhenNamed: true },
  { name: "patterns", file: "patterns.ts", result: "patterns" },
  { name: "native-plugin", file: "native-plugin.ts", result: "native-plugin", onlyWhenNamed: true },
  { name: "state-backends", file: "state-backends.ts", result: "state-backends", onlyWhenNamed: true },
];
const emulatorBenches = readdirSync(path.join(root, "bench"))
  .filter((f) => /^emulator-.*\.(ts|mjs|js)$/.test(f))
  .sort();

const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith("--"));
const names = args.filter((a) => !a.startsWith("--"));
const known = [...OURS.map((b) => b.name), "emulator"];
for (const n of names) {
  if (!known.includes(n)) {
    console.error(`unknown benchmark ${JSON.stringify(n)}; known: ${known.join(", ")}`);
    process.exit(2);
  }
}
const selected = (n) =>
  names.includes(n) || (names.length === 0 && !OURS.find((b) => b.name === n)?.onlyWhenNamed);

const run = (cmd, cmdArgs, options = {}) => {
  console.error(`\n> ${[cmd, ...cmdArgs].join(" ")}`);
  return spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", ...options });
};

// Benchmarks measure the built package (what users run), so build it first.
if (run("npm", ["run", "build"]).status !== 0) process.exit(1);
if (run(process.execPath, [path.join(root, "scripts", "link-self.mjs")]).status !== 0) process.exit(1);
mkdirSync(outDir, { recursive: true });

const failed = [];
for (const b of OURS) {
  if (!selected(b.name)) continue;
  const r = run(process.execPath, ["--import", hook, path.join(root, "bench", b.file), ...flags]);
  if (r.status !== 0) failed.push(b.file);
}
if (selected("emulator")) {
  // The emulator's benchmarks are another engineer's: run them the way they say (an npm script
  // `bench:emulator` if there is one), else each file as it is. Their output goes into RESULTS.md verbatim.
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const jobs = pkg.scripts?.["bench:emulator"]
    ? [
        {
          id: "emulator",
          label: "npm run bench:emulator",
          cmd: "npm",
          cmdArgs: ["run", "--silent", "bench:emulator"],
        },
      ]
    : emulatorBenches.map((file) => ({
        id: file.replace(/\.[^.]+$/, ""),
        label: `bench/${file}`,
        cmd: process.execPath,
        cmdArgs: ["--import", hook, path.join(root, "bench", file), ...flags],
      }));
  for (const job of jobs) {
    const r = run(job.cmd, job.cmdArgs, {
      stdio: ["ignore", "pipe", "inherit"],
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    process.stdout.write(r.stdout ?? "");
    if (r.status !== 0) failed.push(job.label);
    else
      writeFileSync(
        path.join(outDir, `${job.id}.output.json`),
        JSON.stringify({ label: job.label, date: new Date().toISOString(), output: r.stdout ?? "" }),
      );
  }
}

// Assemble RESULTS.md from every result in bench/out.
const results = OURS.map((b) => path.join(outDir, `${b.result}.json`))
  .filter((f) => existsSync(f))
  .map((f) => JSON.parse(readFileSync(f, "utf8")));
const emulatorOutputs = readdirSync(outDir)
  .filter((f) => f.endsWith(".output.json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(outDir, f), "utf8")));
if (results.length > 0 || emulatorOutputs.length > 0) {
  const latest = results.map((r) => r.machine).sort((a, b) => b.date.localeCompare(a.date))[0];
  const m = latest ?? {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
  };
  const lines = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (scripts/bench.mjs) from the latest run of each benchmark; each section",
    "says when it ran. Ratios are measured side by side in the same run. Sources: `bench/`.",
    "",
    "| | |",
    "| --- | --- |",
    `| date | ${m.date.slice(0, 10)} |`,
    `| machine | ${m.nproc} CPUs${m.cpu ? ` (${m.cpu})` : ""}, ${m.memoryGiB} GiB memory${m.os ? `, ${m.os}` : ""} |`,
    `| Node.js | ${m.node} |`,
    `| Pulumi CLI | ${m.pulumiCli ?? "–"} |`,
    `| @pulumi/pulumi | ${m.pulumiSdk ?? "–"} |`,
    "",
    "The machine was shared with other work while these ran (load average noted per section); the",
    "engine timings alternate which side goes first so that such load hits both sides alike.",
    "",
  ];
  for (const r of results) {
    const [heading, ...rest] = r.markdown.split("\n");
    lines.push(
      heading,
      "",
      `_Run ${r.machine.date.slice(0, 16).replace("T", " ")} UTC; load average ${r.machine.loadAverage} → ${r.loadAverageAtEnd}; goals ${r.goalsMet ? "met" : "**not all met**"}._`,
      ...rest,
      "",
    );
  }
  for (const e of emulatorOutputs) {
    lines.push(
      `## Emulator: \`${e.label}\``,
      "",
      `_Run ${e.date.slice(0, 16).replace("T", " ")} UTC; output as printed._`,
      "",
      "```text",
      e.output.trimEnd(),
      "```",
      "",
    );
  }
  // Sections this clone has no result for stay as committed (a fresh clone that runs one benchmark
  // used to drop every other section).
  const resultsFile = path.join(root, "bench", "RESULTS.md");
  const committed = existsSync(resultsFile) ? readFileSync(resultsFile, "utf8") : "";
  writeFileSync(resultsFile, mergeResults(committed, `${lines.join("\n").trimEnd()}\n`));
  console.error(`\nwrote bench/RESULTS.md`);
}
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(", ")}`);
  process.exit(1);
}
