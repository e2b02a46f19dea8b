// Every TypeScript block of README.md and of the guides in docs/ is code that runs somewhere: the resource and data-source
// snippets in examples/readme and examples/readme-iam (run by test/e2e/examples/readme.test.ts), the client snippet in
// test/integration/sdk/readme-client.test.ts, the quickstart in examples/quickstart. The side-by-side
// quickstart in the other languages comes from the programs test/e2e/generated-sdks runs. This test fails when
// the README drifts from them.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (p: string) => readFileSync(path.join(root, p), "utf8");
const RUNS_IN = [
  "examples/quickstart/index.ts",
  "examples/readme/index.ts",
  "examples/readme-iam/index.ts",
  "examples/pull-tokens/index.ts",
  "test/integration/sdk/readme-client.test.ts",
  "examples/testing/typescript/org.test.ts",
].map((p) => ({
  path: p,
  text: squash(read(p)),
}));

// Layout and import lines differ between a README block and the file that runs it; code must not.
function squash(code: string): string {
  return code
    .split("\n")
    .filter((l) => !/^\s*import /.test(l))
    .join("")
    .replace(/\s+/g, "")
    .replace(/,([}\])])/g, "$1");
}

// The README and the user guides split out of it (issue 34). The emulator, toolchain and packaging
// pages show code of the tooling, not of a Pulumi program or the client.
const NOT_CHECKED = new Set(["emulator.md", "toolchain.md", "packaging.md", "contract-decisions.md"]);
const PAGES = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md") && !NOT_CHECKED.has(f))
    .map((f) => `docs/${f}`),
];
const blocks = PAGES.flatMap((page) =>
  [...read(page).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? ""),
);

describe("the TypeScript snippets of README.md and docs/", () => {
  it("has TypeScript examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
  });

  for (const [i, block] of blocks.entries()) {
    it(`runs TypeScript block ${i + 1} (${block
      .split("\n")
      .find((l) => l.trim() && !l.startsWith("import"))
      ?.trim()
      .slice(0, 50)}…) in an example or a test`, () => {
      const code = squash(block);
      expect(RUNS_IN.filter((f) => f.text.includes(code)).map((f) => f.path)).not.toEqual([]);
    });
  }

  // Each language's block of "The quickstart in every language" is a piece of that language's
  // quickstart program, which test/e2e/generated-sdks/same-org-every-language.test.ts runs.
  const section =
    /## The quickstart in every language\n([\s\S]*?)\n## /.exec(read("docs/languages.md"))?.[1] ?? "";
  const PROGRAMS: Record<string, string> = {
    ts: "examples/quickstart/index.ts",
    yaml: "examples/quickstart-yaml/Main.yaml",
    python: "examples/quickstart-python/__main__.py",
    go: "examples/quickstart-go/main.go",
  };
  const sideBySide = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    language: m[1] ?? "",
    code: m[2] ?? "",
  }));

  it("shows the quickstart side by side in TypeScript, YAML, Python and Go", () => {
    expect(sideBySide.map((b) => b.language)).toEqual(Object.keys(PROGRAMS));
  });

  for (const { language, code } of sideBySide)
    it(`quotes the ${language} quickstart block from ${PROGRAMS[language] ?? "a program"} as it runs`, () => {
      expect(squash(read(PROGRAMS[language] ?? "docs/languages.md"))).toContain(squash(code));
    });
});
