// Every TypeScript block of README.md is code that runs somewhere: the resource and data-source
// snippets in examples/readme and examples/readme-iam (run by test/e2e/examples/readme.test.ts), the client snippet in
// test/integration/sdk/readme-client.test.ts. This test fails when the README drifts from them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (p: string) => readFileSync(path.join(root, p), "utf8");
const RUNS_IN = [
  "examples/readme/index.ts",
  "examples/readme-iam/index.ts",
  "test/integration/sdk/readme-client.test.ts",
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

const blocks = [...read("README.md").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");

describe("README.md", () => {
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
});
