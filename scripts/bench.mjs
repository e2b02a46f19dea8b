#!/usr/bin/env node
// `npm run bench [-- <names…>] [-- --flag=value…]`: builds the packages, runs the benchmarks one after the
// other (never in parallel: they measure time on a small machine) and writes bench/RESULTS.md.
//
// The benchmarks are the files bench/*.ts (bench/support/benchmark-files.ts): `npm run bench -- --list`
// prints them. A name selects a file by its whole name or its first words (`engine` is
// engine-overhead.ts, `emulator` is every emulator-*.ts). Without names, all of them except those whose
// header says "Only when named" (scale, import-org, native-plugin, provider-profile, state-backends).
// Flags (e.g. `--rounds=1`) are passed to every benchmark. Benchmarks are TypeScript run by Node's type
// stripping; bench/support/register-ts.mjs maps the repository's `.js` import specifiers to their `.ts`
// files.
// Each leaves a JSON result in bench/out/ (git-ignored); the emulator's benchmarks print theirs instead,
// kept as printed. RESULTS.md is assembled from every result there and merged into the committed file
// section by section (bench/support/results-file.ts): running one benchmark refreshes its sections only
// and keeps the others as committed, also in a fresh clone.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  listBenchmarks,
  readResults,
  renderResults,
  selectBenchmarks,
  writeResults,
} from "../bench/support/index.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const benchDir = path.join(root, "bench");
const outDir = path.join(benchDir, "out");
const hook = path.join(benchDir, "support", "register-ts.mjs");

const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith("--") && a !== "--list");
const all = listBenchmarks(benchDir);
if (args.includes("--list")) {
  for (const b of all)
    console.log(
      `${b.name.padEnd(20)} ${b.title}${b.onlyWhenNamed ? ` (only when named: ${b.onlyWhenNamed})` : ""}`,
    );
  process.exit(0);
}
let selected;
try {
  selected = selectBenchmarks(
    all,
    args.filter((a) => !a.startsWith("--")),
  );
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

const run = (cmd, cmdArgs, options = {}) => {
  console.error(`\n> ${[cmd, ...cmdArgs].join(" ")}`);
  return spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", ...options });
};
// `--expose-gc` for the benchmarks that measure memory after a collection.
const node = (file) => [process.execPath, ["--import", hook, "--expose-gc", file, ...flags]];

// Benchmarks measure the built package (what users run), so build it first.
if (run("npm", ["run", "build"]).status !== 0) process.exit(1);
if (run(process.execPath, [path.join(root, "scripts", "link-self.mjs")]).status !== 0) process.exit(1);
mkdirSync(outDir, { recursive: true });

const failed = [];
for (const b of selected.filter((b) => !b.verbatim)) {
  if (run(...node(b.file)).status !== 0) failed.push(path.relative(root, b.file));
}
const verbatim = selected.filter((b) => b.verbatim);
const ranOutputs = [];
if (verbatim.length > 0) {
  // The emulator's benchmarks print their results: run them the way their author does (the npm script
  // `bench:emulator`, when all of them are selected and it exists), else each file; their output goes
  // into RESULTS.md as printed.
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const whole = pkg.scripts?.["bench:emulator"] && all.filter((b) => b.verbatim).length === verbatim.length;
  const jobs = whole
    ? [
        {
          id: "emulator",
          label: "npm run bench:emulator",
          cmd: ["npm", ["run", "--silent", "bench:emulator"]],
        },
      ]
    : verbatim.map((b) => ({ id: b.name, label: `bench/${b.name}.ts`, cmd: node(b.file) }));
  for (const job of jobs) {
    ranOutputs.push(job.id);
    const r = run(...job.cmd, {
      stdio: ["ignore", "pipe", "inherit"],
      encoding: "utf8",
      maxBuffer: 64 << 20,
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

// Assemble RESULTS.md from the results of the benchmarks this run ran, merged into the committed
// one. Regression: every result left in bench/out was rendered again, so a run of one benchmark
// rewrote the others' sections from older files and dropped what had been written into them by hand.
const { results, outputs } = readResults(
  outDir,
  selected.filter((b) => !b.verbatim).map((b) => b.name),
  ranOutputs,
);
if (results.length > 0 || outputs.length > 0) {
  writeResults(path.join(benchDir, "RESULTS.md"), renderResults(results, outputs));
  console.error(`\nwrote bench/RESULTS.md`);
}
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(", ")}`);
  process.exit(1);
}
