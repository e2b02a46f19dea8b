// examples/drift-check: the GitHub Actions workflow lints clean with the real actionlint (built once
// per machine, scripts/actionlint.ts), and it and its GitLab CI twin each run `pulumi-irv drift` on a
// schedule, fail on an error of the check (exit 2) but not on drift (exit 1), keep one issue about
// it, and authenticate only through the CI system's workload token.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ensureActionlint } from "../../../scripts/actionlint.ts";

const dir = path.resolve(import.meta.dirname, "../../../examples/drift-check");
const WORKFLOW = path.join(dir, ".github", "workflows", "drift.yml");
const read = (file: string) => readFileSync(path.join(dir, file), "utf8");
// What runs, without the comments (which may name what the job does not store).
const code = (text: string) => text.replace(/#.*$/gm, "");
const STORED_TOKEN = /IRV_TOKEN|IRV_IDENTITY_TOKEN|ACTIONS_ID_TOKEN_REQUEST/;
const DRIFT = "npx pulumi-irv drift --stack prod --format markdown --fail-on any";

describe("examples/drift-check: the GitHub Actions workflow", () => {
  const workflow = parse(readFileSync(WORKFLOW, "utf8")) as {
    on: Record<string, unknown>;
    permissions: Record<string, string>;
    jobs: { drift: { steps: { name?: string; run?: string; if?: string }[] } };
  };
  const steps = workflow.jobs.drift.steps;

  it("lints clean under actionlint", async () => {
    const exe = await ensureActionlint({ log: (line) => console.error(line) });
    const r = spawnSync(exe, ["-no-color", WORKFLOW], { cwd: dir, encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 600_000);

  it("runs drift on a schedule with the job's OIDC token, and stops on exit 2 only", () => {
    expect(workflow.on).toHaveProperty("schedule");
    expect(workflow.permissions).toEqual({ "id-token": "write", contents: "read", issues: "write" });
    const run = steps.find((s) => s.name === "Drift")?.run ?? "";
    expect(run).toContain(DRIFT);
    expect(run).toContain('if [ "$code" -gt 1 ]; then exit "$code"; fi');
    expect(code(readFileSync(WORKFLOW, "utf8"))).not.toMatch(STORED_TOKEN);
  });

  it("keeps one issue: updates the open irv-drift issue or opens one, and closes it when clean", () => {
    const open = steps.find((s) => s.if === "steps.drift.outputs.found == '1'")?.run ?? "";
    expect(open).toMatch(
      /gh issue list --label irv-drift --state open[\s\S]*gh issue edit[\s\S]*gh issue create/,
    );
    const close = steps.find((s) => s.if === "steps.drift.outputs.found == '0'")?.run ?? "";
    expect(close).toContain('gh issue close "$number"');
  });
});

describe("examples/drift-check: the GitLab CI twin", () => {
  const pipeline = parse(read(".gitlab-ci.yml")) as Record<
    string,
    { rules: { if: string }[]; script: string[]; id_tokens: Record<string, { aud: string }> }
  >;
  const job = pipeline.drift;

  it("runs drift in scheduled pipelines with the job's ID token, and stops on exit 2 only", () => {
    expect(job?.rules.map((r) => r.if)).toContain('$CI_PIPELINE_SOURCE == "schedule"');
    expect(job?.id_tokens).toEqual({ IRV_ID_TOKEN: { aud: "$IRV_AUTH_URL" } });
    const script = job?.script.join("\n") ?? "";
    expect(script).toContain(`${DRIFT} > .irv-drift/drift.md || code=$?`);
    expect(script).toMatch(/exit "\$code"[\s\S]*node drift-issue\.mjs \.irv-drift\/drift\.md "\$code"/);
    expect(code(read(".gitlab-ci.yml"))).not.toMatch(STORED_TOKEN);
  });

  it("drift-issue.mjs finds the open issue by its label, and updates, opens or closes it", () => {
    const script = read("drift-issue.mjs");
    expect(script).toMatch(/\?labels=\$\{LABEL\}&state=opened/);
    expect(script).toMatch(/method: "PUT", body: JSON\.stringify\(\{ description \}\)/);
    expect(script).toMatch(/JSON\.stringify\(\{ state_event: "close" \}\)/);
  });
});
