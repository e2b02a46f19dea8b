// RESULTS.md as the runner writes it. Regression (issue 25 item 6): `npm run bench -- <name>` in a
// fresh clone rewrote RESULTS.md from that clone's result files only, dropping every other section.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BenchResult } from "../../../bench/support/index.ts";
import {
  mergeResults,
  ROOT,
  readResults,
  renderResults,
  splitSections,
  writeResults,
} from "../../../bench/support/index.ts";

const committed = readFileSync(path.join(ROOT, "bench", "RESULTS.md"), "utf8");
const PATTERNS = "## Identity patterns: a catastrophic pattern/value pair (bench/patterns.ts)";

const result = (name: string, markdown: string, goals?: BenchResult["goals"]): BenchResult => ({
  name,
  markdown,
  machine: {
    date: "2026-12-01T10:20:00.000Z",
    nproc: 2,
    cpu: "test cpu",
    memoryGiB: 4,
    loadAverage: 1.5,
    node: "v24.0.0",
    pulumiCli: undefined,
    pulumiSdk: "3.0.0",
    os: "Linux",
  },
  loadAverageAtEnd: 2,
  ...(goals === undefined ? {} : { goals }),
  data: {},
});

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("RESULTS.md after one benchmark in a fresh clone", () => {
  it("changes that benchmark's section only; the preamble and every other section stay as committed", () => {
    const fresh = renderResults(
      [result("patterns", `${PATTERNS}\n\nnew patterns numbers`, { "STS ≤ 50 ms": true })],
      [],
    );
    const merged = mergeResults(committed, fresh);
    const before = splitSections(committed);
    const after = splitSections(merged);
    expect(after.preamble.trimEnd()).toBe(before.preamble.trimEnd());
    expect(after.sections.map((s) => s.heading)).toEqual(before.sections.map((s) => s.heading));
    for (const [i, s] of before.sections.entries()) {
      const now = after.sections[i]?.text.trimEnd();
      if (s.heading === PATTERNS)
        expect(now).toBe(
          `${PATTERNS}\n\n_Run 2026-12-01 10:20 UTC; load average 1.5 → 2; goals met._\n\nnew patterns numbers`,
        );
      else expect(now, s.heading).toBe(s.text.trimEnd());
    }
  });
});

describe("renderResults", () => {
  it("says nothing of goals for a benchmark that checks none, and keeps verbatim output as printed", () => {
    const fresh = renderResults(
      [result("access-review", "## Access review\n\nfigures")],
      [{ label: "npm run bench:emulator", date: "2026-12-01T11:00:00Z", output: "## not a heading\n" }],
    );
    expect(fresh).toContain("_Run 2026-12-01 10:20 UTC; load average 1.5 → 2._");
    expect(fresh).toContain(
      "## Emulator: `npm run bench:emulator`\n\n_Run 2026-12-01 11:00 UTC; output as printed._",
    );
    expect(splitSections(fresh).sections.map((s) => s.heading)).toEqual([
      "## Access review",
      "## Emulator: `npm run bench:emulator`",
    ]);
  });
});

describe("readResults and writeResults", () => {
  it("read the named benchmarks' result files and every verbatim output, and merge into the file", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "bench-results-"));
    const out = path.join(dir, "out");
    mkdirSync(out);
    writeFileSync(
      path.join(out, "patterns.json"),
      JSON.stringify(result("patterns", "## P\n\nnew", { g: true })),
    );
    writeFileSync(path.join(out, "gone.json"), JSON.stringify(result("gone", "## Gone\n\nx", { g: true })));
    writeFileSync(
      path.join(out, "emulator.output.json"),
      JSON.stringify({ label: "npm run bench:emulator", date: "2026-12-01T11:00:00Z", output: "42 req/s" }),
    );
    const { results, outputs } = readResults(out, ["engine-overhead", "patterns"]);
    expect(results.map((r) => r.name)).toEqual(["patterns"]);
    expect(outputs.map((o) => o.output)).toEqual(["42 req/s"]);

    const file = path.join(dir, "RESULTS.md");
    writeFileSync(file, "# Benchmark results\n\nkept preamble\n\n## E\n\nold engine\n\n## P\n\nold\n");
    writeResults(file, renderResults(results, outputs));
    const written = readFileSync(file, "utf8");
    expect(written).toContain("kept preamble");
    expect(written).toContain("old engine");
    expect(written).not.toContain("\nold\n");
    expect(written).toContain("42 req/s");
  });

  it("regression (a run rewrote other benchmarks' sections): reads only the outputs of the ids given", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "bench-results-"));
    const out = path.join(dir, "out");
    mkdirSync(out);
    const output = (id: string) =>
      writeFileSync(
        path.join(out, `${id}.output.json`),
        JSON.stringify({ label: id, date: "2026-12-01T11:00:00Z", output: `${id} says` }),
      );
    output("emulator");
    output("emulator-grpc");
    expect(readResults(out, [], ["emulator-grpc"]).outputs.map((o) => o.output)).toEqual([
      "emulator-grpc says",
    ]);
    expect(readResults(out, [], []).outputs).toEqual([]);
  });
});

describe("goals in a section's run line", () => {
  // Regression (issue 34): provider-start and state-backends check no goal, yet their sections said
  // "goals met".
  it("says nothing of goals when a benchmark has none, even with an empty goal list", () => {
    for (const goals of [undefined, {}]) {
      const fresh = renderResults([result("state-backends", "## State backends\n\nfigures", goals)], []);
      expect(fresh).toContain("_Run 2026-12-01 10:20 UTC; load average 1.5 → 2._");
      expect(fresh).not.toContain("goals");
    }
  });

  it("says goals met when every goal was met, and names the missed ones otherwise", () => {
    const met = renderResults([result("patterns", "## P\n", { "STS ≤ 50 ms": true, "HTTP 403": true })], []);
    expect(met).toContain("load average 1.5 → 2; goals met._");
    const missed = renderResults(
      [result("scale", "## S\n", { steps: true, latency: false, "calls exact": false })],
      [],
    );
    expect(missed).toContain("load average 1.5 → 2; goals **not all met** (missed: latency, calls exact)._");
  });
});
