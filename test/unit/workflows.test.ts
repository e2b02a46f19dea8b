// The GitHub workflows lint clean with the real actionlint (built once per machine from the Go
// module proxy, scripts/actionlint.ts), and do what docs/releasing.md says they do.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ensureActionlint } from "../../scripts/actionlint.ts";

const root = path.resolve(import.meta.dirname, "../..");
const workflow = (name: string) =>
  parse(readFileSync(path.join(root, ".github", "workflows", name), "utf8")) as {
    on: Record<string, unknown>;
    jobs: Record<string, { steps: { run?: string; uses?: string }[]; permissions?: Record<string, string> }>;
  };

describe(".github/workflows", () => {
  it("lint clean under actionlint", async () => {
    const exe = await ensureActionlint({ log: (line) => console.error(line) });
    const r = spawnSync(exe, ["-no-color"], { cwd: root, encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 600_000);

  it("ci runs .ci/run on pull requests", () => {
    const ci = workflow("ci.yml");
    expect(ci.on).toHaveProperty("pull_request");
    expect(ci.jobs.test?.steps.map((s) => s.run)).toContain(".ci/run");
  });

  it("release runs on v* tags: tests, npm run release, then npm with provenance, PyPI, the GitHub release, the Go tag", () => {
    const release = workflow("release.yml");
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
    const runs = (job: string) =>
      (release.jobs[job]?.steps ?? []).map((s) => s.run ?? s.uses ?? "").join("\n");
    expect(runs("build")).toMatch(/\.ci\/run[\s\S]*npm run release/);
    expect(runs("npm")).toContain("npm publish --provenance");
    expect(release.jobs.npm?.permissions?.["id-token"]).toBe("write");
    expect(runs("pypi")).toContain("pypa/gh-action-pypi-publish");
    expect(release.jobs.pypi?.permissions).toEqual({ "id-token": "write" });
    expect(runs("github")).toContain("gh release create");
    expect(runs("github")).toContain('git tag "generated-sdks/go/irv/$GITHUB_REF_NAME"');
  });
});
