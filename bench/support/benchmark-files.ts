// The benchmarks are the files bench/*.ts: `npm run bench -- <name>` selects them by file name, so a
// new benchmark is one new file and nothing else to register. Each file's header says what the runner
// needs: its first line is its title, and `Only when named: <why>` in it keeps it out of the default
// set (a long or diagnostic run).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * One benchmark file.
 *
 * @example
 * const b: BenchmarkFile = { name: "scale", file: "/repo/bench/scale.ts", title: "…", onlyWhenNamed: "about 25 minutes", verbatim: false };
 */
export interface BenchmarkFile {
  /** The file name without `.ts`: what selects it, and the name of its result file in bench/out/. */
  name: string;
  /** Absolute path. */
  file: string;
  /** The first line of its header comment. */
  title: string;
  /** Why it runs only when named, if it does. */
  onlyWhenNamed: string | undefined;
  /**
   * Whether it prints its result instead of writing a result file: the emulator's own benchmarks
   * (`emulator-*.ts`), whose output goes into RESULTS.md as printed.
   */
  verbatim: boolean;
}

/**
 * Reads a benchmark's header: its title and why it runs only when named (a line `// Only when
 * named: <why>`, or `(only when named: <why>)` within a line, as in `// Run: npm run bench -- x
 * (only when named: about 15 minutes)`).
 *
 * @example
 * parseHeader("// Scale: 3,000 resources\n// Only when named: about 25 minutes\nimport …");
 * // { title: "Scale: 3,000 resources", onlyWhenNamed: "about 25 minutes" }
 */
export function parseHeader(source: string): { title: string; onlyWhenNamed: string | undefined } {
  const header: string[] = [];
  for (const line of source.split("\n")) {
    if (!line.startsWith("//")) break;
    header.push(line.replace(/^\/\/ ?/, ""));
  }
  const only = header.map((l) => /only when named\b:?\s*([^)]*)/i.exec(l)).find((m) => m !== null);
  return {
    title: header[0]?.trim() ?? "",
    onlyWhenNamed: only === undefined ? undefined : only[1]?.trim().replace(/\.$/, "") || "only when named",
  };
}

/**
 * The benchmark files of a bench directory, by name.
 *
 * @example
 * listBenchmarks(path.join(ROOT, "bench")).map((b) => b.name); // ["access-review", "data-sources", …]
 */
export function listBenchmarks(dir: string): BenchmarkFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const name = f.slice(0, -".ts".length);
      return {
        name,
        file,
        ...parseHeader(readFileSync(file, "utf8")),
        verbatim: name.startsWith("emulator-"),
      };
    });
}

/**
 * The benchmarks that `npm run bench -- <names…>` runs: without names, every one not marked "only
 * when named"; else those each name selects, by their whole name or its first words (`engine` is
 * engine-overhead, `emulator` every emulator-*). A name that selects nothing is an error that lists
 * the names there are.
 *
 * @example
 * selectBenchmarks(listBenchmarks(dir), ["engine"]).map((b) => b.name); // ["engine-overhead"]
 */
export function selectBenchmarks(all: readonly BenchmarkFile[], names: readonly string[]): BenchmarkFile[] {
  if (names.length === 0) return all.filter((b) => b.onlyWhenNamed === undefined);
  const selects = (name: string, b: BenchmarkFile) => b.name === name || b.name.startsWith(`${name}-`);
  for (const name of names) {
    if (!all.some((b) => selects(name, b)))
      throw new Error(
        `unknown benchmark ${JSON.stringify(name)}: the benchmarks are the files bench/*.ts, ${all.map((b) => b.name).join(", ")} (or the first words of a name, e.g. engine)`,
      );
  }
  return all.filter((b) => names.some((name) => selects(name, b)));
}
