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
 * A heading without its figures: the same benchmark run at another size (`## 6. Scale: 150
 * resources under rate limits` for `## 6. Scale: 3000 resources …`) writes the same section.
 *
 * @example
 * headingShape("## 6. Scale: 3000 resources under rate limits"); // "## #. Scale: # resources under rate limits"
 */
export function headingShape(heading: string): string {
  return heading.replace(/\d+(?:[.,\s]\d+)*/g, "#");
}

/**
 * The RESULTS.md to write after a run: the committed preamble (the fresh one when there is none:
 * each section says when and on what it ran), every committed section in its place (replaced by the
 * fresh section of the same heading when this clone has a result for it; failing that, by one whose
 * heading differs only in its figures and matches no other committed section), then the fresh
 * sections the committed file did not have. A benchmark run in a fresh clone so updates its own
 * sections and leaves the others as committed, instead of dropping them, also when a size flag
 * changed the figures in its heading.
 *
 * @example
 * mergeResults(readFileSync("bench/RESULTS.md", "utf8"), assembledFromBenchOut);
 */
export function mergeResults(committed: string, fresh: string): string {
  const old = splitSections(committed);
  const next = splitSections(fresh);
  const committedHeadings = new Set(old.sections.map((s) => s.heading));
  const used = new Set<ResultsSection>();
  const unused = (f: (s: ResultsSection) => boolean) => next.sections.find((s) => !used.has(s) && f(s));
  const parts = [(old.preamble.trim() === "" ? next.preamble : old.preamble).trimEnd()];
  for (const s of old.sections) {
    const replacement =
      unused((n) => n.heading === s.heading) ??
      unused((n) => !committedHeadings.has(n.heading) && headingShape(n.heading) === headingShape(s.heading));
    if (replacement !== undefined) used.add(replacement);
    parts.push((replacement ?? s).text.trimEnd());
  }
  for (const s of next.sections) if (!used.has(s)) parts.push(s.text.trimEnd());
  return `${parts.join("\n\n")}\n`;
}
