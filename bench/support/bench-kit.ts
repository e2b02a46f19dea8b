// What every benchmark shares: the built package (benchmarks measure dist/, what users run), the
// machine description for bench/RESULTS.md, statistics, formatting, and the JSON result file each
// benchmark leaves in bench/out/ for scripts/bench.mjs to assemble.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Where benchmarks write their JSON results (ignored by git). */
export const OUT_DIR = path.join(ROOT, "bench", "out");

/**
 * Imports a module of the built package (`dist/`), typed as its source.
 *
 * @example
 * const { startEmulator } = await loadDist<typeof import("../../emulator/index.ts")>("emulator/index.js");
 */
export async function loadDist<T>(relative: string): Promise<T> {
  // The emulator is its own workspace package, built into emulator/dist.
  const file = relative.startsWith("emulator/")
    ? path.join(ROOT, "emulator", "dist", relative.slice("emulator/".length))
    : path.join(ROOT, "dist", relative);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return (await import(file)) as T;
}

/** Sorted copy. */
const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/**
 * The median of a non-empty list.
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(xs: readonly number[]): number {
  const s = sorted(xs);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * The smallest value.
 *
 * @example
 * min([3, 1, 2]); // 1
 */
export function min(xs: readonly number[]): number {
  return sorted(xs)[0] ?? Number.NaN;
}

/**
 * Milliseconds for a table: `812 ms` or `12.3 s`.
 *
 * @example
 * ms(12345); // "12.3 s"
 */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return "–";
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

/**
 * A ratio for a table: `1.07×`.
 *
 * @example
 * times(1.0712); // "1.07×"
 */
export function times(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : "–";
}

/**
 * Bytes for a table: `1,151 B` or `1.10 MB`.
 *
 * @example
 * bytes(2048); // "2,048 B"
 */
export function bytes(value: number): string {
  if (value >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(2)} MB`;
  return `${Math.round(value).toLocaleString("en-US")} B`;
}

/**
 * A markdown table.
 *
 * @example
 * table(["op", "time"], [["up", "12 s"]]);
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * The machine's 1-minute load average, to two decimals: other work on a shared machine, noted with
 * every result.
 *
 * @example
 * progress(`load average ${loadAverage()}`);
 */
export function loadAverage(): number {
  return Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
}

/** The machine and versions a result was measured with. */
export interface MachineInfo {
  date: string;
  nproc: number;
  cpu: string;
  memoryGiB: number;
  /** 1-minute load average when the benchmark started and ended (other work on the machine). */
  loadAverage: number;
  node: string;
  pulumiCli: string | undefined;
  pulumiSdk: string;
  os: string;
}

/**
 * Describes this machine; `pulumiBin` is the bin dir of the CLI in use.
 *
 * @example
 * const m = machineInfo(cli.binDir);
 */
export function machineInfo(pulumiBin?: string): MachineInfo {
  const require = createRequire(path.join(ROOT, "package.json"));
  const sdk = JSON.parse(readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8")) as {
    version: string;
  };
  let pulumiCli: string | undefined;
  if (pulumiBin !== undefined) {
    pulumiCli = execFileSync(path.join(pulumiBin, "pulumi"), ["version"], {
      encoding: "utf8",
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
    }).trim();
  }
  return {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    loadAverage: loadAverage(),
    node: process.version,
    pulumiCli,
    pulumiSdk: sdk.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** What a benchmark leaves in bench/out/<name>.json. */
export interface BenchResult {
  name: string;
  /** Its section of bench/RESULTS.md (markdown, starting with a `##` heading). */
  markdown: string;
  machine: MachineInfo;
  /** Load average when it ended. */
  loadAverageAtEnd: number;
  /**
   * The benchmark's goals, each by what it checks, and whether it was met. A benchmark that checks
   * none leaves it out (or empty), and its section then says nothing of goals.
   */
  goals?: Readonly<Record<string, boolean>>;
  data: unknown;
}

/**
 * Writes a benchmark's result file and prints its section.
 *
 * @example
 * saveResult({ name: "data-sources", markdown, machine, goals: { "ratio ≤ 0.35": true }, data });
 */
export function saveResult(result: Omit<BenchResult, "loadAverageAtEnd">): void {
  mkdirSync(OUT_DIR, { recursive: true });
  const full: BenchResult = { ...result, loadAverageAtEnd: loadAverage() };
  writeFileSync(path.join(OUT_DIR, `${result.name}.json`), `${JSON.stringify(full, null, 2)}\n`);
  console.log(`\n${result.markdown}\n`);
}

/**
 * A number from `--name=value` on the command line or an environment variable, else the default.
 *
 * @example
 * const rounds = numberOption("rounds", "IRV_BENCH_ROUNDS", 3);
 */
export function numberOption(name: string, env: string, fallback: number): number {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = flag?.slice(name.length + 3) ?? process.env[env];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} (${env}) must be a positive number`);
  return n;
}

/**
 * `--checkpoints=final` (default: only the final state is written, PULUMI_SKIP_CHECKPOINTS) or
 * `every` (the backend's default), from the command line or IRV_BENCH_CHECKPOINTS.
 *
 * @example
 * const env = checkpointOption() === "final" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
 */
export function checkpointOption(): "final" | "every" {
  const raw =
    process.argv.find((a) => a.startsWith("--checkpoints="))?.slice("--checkpoints=".length) ??
    process.env.IRV_BENCH_CHECKPOINTS ??
    "final";
  if (raw !== "final" && raw !== "every")
    throw new Error(`--checkpoints (IRV_BENCH_CHECKPOINTS) must be final or every, got ${raw}`);
  return raw;
}

/**
 * Prints a progress line on stderr (stdout carries the results).
 *
 * @example
 * progress("round 1: up (irv) 12.3 s");
 */
export function progress(line: string): void {
  process.stderr.write(`  ${line}\n`);
}
