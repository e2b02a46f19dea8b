// Parses mermaid text with mermaid's own parser, in Node: its sanitizer (DOMPurify) needs a DOM
// window, which linkedom gives it. No browser, no rendering: the parse alone.
import { parseHTML } from "linkedom";

let loaded: Promise<{ parse(text: string): Promise<unknown> }> | undefined;

async function mermaid() {
  if (loaded === undefined) {
    const g = globalThis as { window?: unknown; document?: unknown };
    if (g.window === undefined) {
      const { window } = parseHTML("<!doctype html><html><body></body></html>");
      g.window = window;
      g.document = window.document;
    }
    loaded = import("mermaid").then((m) => m.default);
  }
  return loaded;
}

/** The ```mermaid blocks of a markdown text. */
export function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1] ?? "");
}

/** Parses one diagram with mermaid; throws mermaid's parse error when it is not valid. */
export async function parseMermaid(text: string): Promise<{ diagramType: string }> {
  return (await (await mermaid()).parse(text)) as { diagramType: string };
}
