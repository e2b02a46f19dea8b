// Every relative link of README.md and of the markdown under docs/ points at a file of the repository,
// and a link with a #fragment at a heading of that page (GitHub's anchors: lower case, punctuation
// dropped, spaces as dashes). The README was split into docs/ (issue 34): this keeps the map honest.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((f) => {
    const rel = path.join(dir, f);
    if (statSync(path.join(root, rel)).isDirectory()) return markdownFiles(rel);
    return f.endsWith(".md") ? [rel] : [];
  });
}

/** GitHub's anchor of a heading: `## The typed client (\`pulumi-irv/sdk\`)` → `the-typed-client-pulumi-irvsdk`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const text = readFileSync(path.join(root, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] ?? "")));
}

function links(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((href) => !/^[a-z]+:/i.test(href));
}

const pages = ["README.md", ...markdownFiles("docs")];

describe("links of README.md and docs/", () => {
  it("the README links to the docs index, and the index to every guide", () => {
    expect(links("README.md")).toContain("docs/README.md");
    const index = links("docs/README.md");
    for (const page of markdownFiles("docs").filter(
      (p) => path.dirname(p) === "docs" && p !== "docs/README.md",
    ))
      expect(index, `docs/README.md links to ${page}`).toContain(path.basename(page));
  });

  it("keeps the README short: at most 300 lines", () => {
    expect(readFileSync(path.join(root, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(300);
  });

  for (const page of pages)
    it(`${page}: every relative link resolves (file and #heading)`, () => {
      const broken: string[] = [];
      for (const href of links(page)) {
        const [file = "", fragment] = href.split("#");
        const target = file ? path.normalize(path.join(path.dirname(page), decodeURI(file))) : page;
        if (!existsSync(path.join(root, target))) broken.push(`${href} (no ${target})`);
        else if (fragment && target.endsWith(".md") && !anchors(target).has(fragment))
          broken.push(`${href} (no heading #${fragment} in ${target})`);
      }
      expect(broken).toEqual([]);
    });
});
