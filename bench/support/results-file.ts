// bench/RESULTS.md as `npm run bench` writes it: the result files this clone has in bench/out/
// rendered (a preamble with the machine, then a section per result, then the emulator's verbatim
// outputs) and merged into the committed file section by section (results-sections.ts), so that a
// run refreshes its own sections and leaves the others as committed.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchResult, MachineInfo } from "./bench-kit.ts";
import { mergeResults } from "./results-sections.ts";

/**
 * A benchmark that prints its result instead of writing a result file (the emulator's): what it
 * printed, kept in bench/out/<id>.output.json.
 *
 * @example
 * const out: VerbatimOutput = { label: "npm run bench:emulator", date: "2026-11-21T01:41:00Z", output: "…" };
 */
export interface VerbatimOutput {
  label: string;
  date: string;
  output: string;
}

/**
 * The result files in `outDir` of the named benchmarks (bench/out/<name>.json), in that order, and
 * the verbatim outputs there: those of `outputIds` (bench/out/<id>.output.json) when given, else all.
 *
 * @example
 * const { results, outputs } = readResults("bench/out", ["engine-overhead", "patterns"], []);
 */
export function readResults(
  outDir: string,
  names: readonly string[],
  outputIds?: readonly string[],
): { results: BenchResult[]; outputs: VerbatimOutput[] } {
  const read = <T>(file: string) => JSON.parse(readFileSync(path.join(outDir, file), "utf8")) as T;
  const results = names
    .map((n) => `${n}.json`)
    .filter((f) => existsSync(path.join(outDir, f)))
    .map((f) => read<BenchResult>(f));
  const outputs = existsSync(outDir)
    ? readdirSync(outDir)
        .filter((f) => f.endsWith(".output.json"))
        .filter((f) => outputIds === undefined || outputIds.includes(f.slice(0, -".output.json".length)))
        .sort()
        .map((f) => read<VerbatimOutput>(f))
    : [];
  return { results, outputs };
}

const runAt = (date: string) => `${date.slice(0, 16).replace("T", " ")} UTC`;

/**
 * What a section's run line says of goals: nothing for a benchmark that has none (issue 34: one
 * without goals said "goals met"), else met, or which were not.
 *
 * @example
 * goalsText({ "ratio ≤ 0.5": false, "calls exact": true }); // "; goals **not all met** (missed: ratio ≤ 0.5)"
 */
function goalsText(goals: BenchResult["goals"]): string {
  const entries = Object.entries(goals ?? {});
  if (entries.length === 0) return "";
  const missed = entries.filter(([, met]) => !met).map(([what]) => what);
  return missed.length === 0 ? "; goals met" : `; goals **not all met** (missed: ${missed.join(", ")})`;
}

/**
 * RESULTS.md as these results alone make it: the preamble describes the machine of the latest one.
 *
 * @example
 * const fresh = renderResults(results, outputs);
 */
export function renderResults(results: readonly BenchResult[], outputs: readonly VerbatimOutput[]): string {
  const latest = results.map((r) => r.machine).sort((a, b) => b.date.localeCompare(a.date))[0];
  const m: Partial<MachineInfo> & Pick<MachineInfo, "date" | "nproc" | "memoryGiB" | "node"> = latest ?? {
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
    const [heading = "", ...rest] = r.markdown.split("\n");
    lines.push(
      heading,
      "",
      `_Run ${runAt(r.machine.date)}; load average ${r.machine.loadAverage} → ${r.loadAverageAtEnd}${goalsText(r.goals)}._`,
      ...rest,
      "",
    );
  }
  for (const e of outputs) {
    lines.push(
      `## Emulator: \`${e.label}\``,
      "",
      `_Run ${runAt(e.date)}; output as printed._`,
      "",
      "```text",
      e.output.trimEnd(),
      "```",
      "",
    );
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/**
 * Merges the rendered results into the RESULTS.md at `file` (sections this run has no result for
 * stay as committed) and writes it.
 *
 * @example
 * writeResults("bench/RESULTS.md", renderResults(results, outputs));
 */
export function writeResults(file: string, fresh: string): void {
  const committed = existsSync(file) ? readFileSync(file, "utf8") : "";
  writeFileSync(file, mergeResults(committed, fresh));
}
