import { describe, expect, it } from "vitest";
import { mergeResults, splitSections } from "../../../bench/support/results-sections.ts";

const COMMITTED = [
  "# Benchmark results",
  "",
  "| date | 2026-11-21 to 2026-11-23 |",
  "",
  "## 1. Engine overhead",
  "",
  "old engine numbers",
  "",
  "## import-org",
  "",
  "old import-org numbers",
  "",
  "## Emulator: `npm run bench:emulator`",
  "",
  "```text",
  "## not a heading inside output",
  "```",
  "",
].join("\n");

describe("bench/RESULTS.md merge", () => {
  // Regression (issue 25 item 6): `npm run bench -- <name>` in a fresh clone rewrote RESULTS.md from
  // that clone's result files only, dropping every other section.
  it("replaces the sections this run produced and keeps every other one as committed, in place", () => {
    const fresh = [
      "# Benchmark results",
      "",
      "| date | 2026-11-25 |",
      "",
      "## import-org",
      "",
      "new import-org numbers",
      "",
      "## Identity patterns",
      "",
      "new patterns numbers",
      "",
    ].join("\n");
    const merged = mergeResults(COMMITTED, fresh);
    expect(splitSections(merged).sections.map((s) => s.heading)).toEqual([
      "## 1. Engine overhead",
      "## import-org",
      "## Emulator: `npm run bench:emulator`",
      "## Identity patterns",
    ]);
    expect(merged).toContain("old engine numbers");
    expect(merged).toContain("new import-org numbers");
    expect(merged).not.toContain("old import-org numbers");
    expect(merged).toContain("## not a heading inside output");
    expect(merged.startsWith("# Benchmark results\n\n| date | 2026-11-21 to 2026-11-23 |")).toBe(true);
  });

  it("replaces a section whose heading a size flag changed instead of adding a second one", () => {
    const committed =
      "# R\n\n## 3. State size\n\nold state\n\n## 6. Scale: 3000 resources under rate limits\n\nold\n";
    const fresh = "# R\n\n## 6. Scale: 150 resources under rate limits\n\nsmoke\n\n## 3b. Wider\n\nnew\n";
    expect(splitSections(mergeResults(committed, fresh)).sections.map((s) => s.text.trim())).toEqual([
      "## 3. State size\n\nold state",
      "## 6. Scale: 150 resources under rate limits\n\nsmoke",
      "## 3b. Wider\n\nnew",
    ]);
  });

  it("writes the fresh file as it is when nothing was committed", () => {
    expect(mergeResults("", "# Benchmark results\n\n## a\n\nx\n")).toBe("# Benchmark results\n\n## a\n\nx\n");
  });
});
