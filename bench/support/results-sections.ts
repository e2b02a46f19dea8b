/**
 * One `## ` section of bench/RESULTS.md: its heading line and everything up to the next heading.
 *
 * @example
 * const s: ResultsSection = { heading: "## import-org", text: "## import-org\n\n…\n" };
 */
export interface ResultsSection {
  heading: string;
  text: string;
}

/**
 * Splits a RESULTS.md into what comes before the first `## ` heading and its sections.
 *
 * @example
 * splitSections("# Benchmark results\n\n## a\nx\n").sections[0]?.heading; // "## a"
 */
export function splitSections(markdown: string): { preamble: string; sections: ResultsSection[] } {
  const lines = markdown.split("\n");
  const sections: ResultsSection[] = [];
  const preamble: string[] = [];
  let current: string[] | undefined;
  let inFence = false;
  for (const line of lines) {
    // A `## ` inside a fenced block (a benchmark's verbatim output) is not a heading.
    if (line.startsWith("```")) inFence = !inFence;
    if (!inFence && line.startsWith("## ")) {
      current = [line];
      sections.push({ heading: line.trim(), text: "" });
    } else (current ?? preamble).push(line);
    const last = sections.at(-1);
    if (last !== undefined && current !== undefined) last.text = current.join("\n");
  }
  return { preamble: preamble.join("\n"), sections };
}

/**
 * The RESULTS.md to write after a run: the committed preamble (the fresh one when there is none:
 * each section says when and on what it ran), every committed section in its place
 * (replaced by the fresh section of the same heading when this clone has a result for it), then the
 * fresh sections the committed file did not have. A benchmark run in a fresh clone so updates its
 * own sections and leaves the others as committed, instead of dropping them.
 *
 * @example
 * mergeResults(readFileSync("bench/RESULTS.md", "utf8"), assembledFromBenchOut);
 */
export function mergeResults(committed: string, fresh: string): string {
  const old = splitSections(committed);
  const next = splitSections(fresh);
  const byHeading = new Map(next.sections.map((s) => [s.heading, s]));
  const used = new Set<string>();
  const parts = [(old.preamble.trim() === "" ? next.preamble : old.preamble).trimEnd()];
  for (const s of old.sections) {
    const replacement = byHeading.get(s.heading);
    if (replacement !== undefined) used.add(s.heading);
    parts.push((replacement ?? s).text.trimEnd());
  }
  for (const s of next.sections) if (!used.has(s.heading)) parts.push(s.text.trimEnd());
  return `${parts.join("\n\n")}\n`;
}
