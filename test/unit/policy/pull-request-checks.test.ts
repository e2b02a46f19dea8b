// examples/pull-request-checks: the GitHub Actions workflow and its GitLab CI twin, parsed as YAML. Each
// previews with the pack (as the packaging publishes it) and its config on pull/merge requests, applies
// on the main branch, and authenticates only through the CI system's own workload token: the job has
// what the provider needs to fetch it, and no step fetches or stores a token. The config only names
// policies and settings the pack has (a typo there would silently do nothing).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import * as policies from "../../../policy/policies/index.js";
import { REVIEW_MARKER } from "../../../review/index.js";
import { DEFAULT_GITLAB_TOKEN_VARIABLE, GITHUB_ACTIONS_ENV } from "../../../sdk/index.js";

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../examples/pull-request-checks",
);
const byName = new Map(
  Object.values(policies)
    .filter(
      (p): p is ResourceValidationPolicy | StackValidationPolicy =>
        typeof p === "object" && p !== null && ("validateResource" in p || "validateStack" in p),
    )
    .map((p) => [p.name, p]),
);
const LEVELS = ["advisory", "mandatory", "remediate", "disabled"];
const PACK = "node_modules/pulumi-irv-policy";
// Settings that would put a stored credential, or a token fetched by a step, in the job.
const STORED_TOKEN = /IRV_TOKEN|IRV_IDENTITY_TOKEN|ACTIONS_ID_TOKEN_REQUEST|curl[^\n]*token/i;

// The parts of the two CI formats this test reads.
const Step = z.object({
  uses: z.string().optional(),
  run: z.string().optional(),
  if: z.string().optional(),
  with: z.record(z.string(), z.union([z.string(), z.boolean(), z.number()])).optional(),
  env: z.record(z.string(), z.string()).optional(),
});
const Workflow = z.object({
  on: z.object({ pull_request: z.unknown(), push: z.object({ branches: z.array(z.string()) }) }),
  permissions: z.record(z.string(), z.string()),
  env: z.record(z.string(), z.string()),
  jobs: z.record(z.string(), z.object({ steps: z.array(Step) })),
});
const GitlabJob = z.object({
  extends: z.string().optional(),
  rules: z.array(z.object({ if: z.string() })).optional(),
  script: z.array(z.string()).optional(),
  before_script: z.array(z.string()).optional(),
  id_tokens: z.record(z.string(), z.object({ aud: z.string() })).optional(),
  variables: z.record(z.string(), z.string()).optional(),
});
const GitlabPipeline = z.record(z.string(), GitlabJob);

const read = (file: string) => readFileSync(path.join(dir, file), "utf8");

describe("examples/pull-request-checks: the GitHub Actions workflow", () => {
  const text = read(".github/workflows/irv.yml");
  const workflow = Workflow.parse(parse(text));
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const pulumi = (event: string) =>
    steps.find((s) => s.uses?.startsWith("pulumi/actions@") && s.if?.includes(event) && s.with?.command);

  it("grants `id-token: write`, which gives the job the ACTIONS_ID_TOKEN_REQUEST_* variables the provider reads", () => {
    expect(workflow.permissions["id-token"]).toBe("write");
    expect(Object.keys(workflow.env)).toEqual(
      expect.arrayContaining(["IRV_BASE_URL", "IRV_AUTH_URL", "IRV_IDENTITY"]),
    );
  });

  it("has no step that fetches or stores a token, and no stored API token", () => {
    for (const step of steps) expect(step.run ?? "").not.toMatch(STORED_TOKEN);
    expect(Object.keys(workflow.env).join(" ")).not.toMatch(STORED_TOKEN);
    expect(text).not.toContain(GITHUB_ACTIONS_ENV.requestToken);
  });

  it("previews with the published policy pack and its config on pull requests", () => {
    expect(workflow.on.pull_request).toBeDefined();
    expect(pulumi("pull_request")?.with).toMatchObject({
      command: "preview",
      policyPacks: PACK,
      policyPackConfigs: "policy-config.json",
    });
  });

  it("reviews access on pull requests, updates one comment found by the review's marker, and gates the preview", () => {
    const pr = steps.filter((s) => s.if?.includes("pull_request"));
    const review = pr.find((s) => s.run?.includes("pulumi-irv access-review"));
    expect(review?.run).toMatch(/--format markdown --gate-inputs "\$RUNNER_TEMP\/irv"/);
    const post = pr.find((s) => s.run?.includes("gh api"));
    expect(post?.run).toContain(`startswith("${REVIEW_MARKER}")`);
    expect(post?.run).toMatch(/--method PATCH .*issues\/comments\/\$id/);
    expect(post?.run).toMatch(/--method POST .*issues\/\$PR\/comments/);
    // The review runs before the gated preview, which reads the files it wrote.
    const preview = pulumi("pull_request");
    expect(pr.indexOf(review!)).toBeLessThan(pr.indexOf(preview!));
    expect(preview?.env?.IRV_ACCESS_BEFORE_FILE).toMatch(/runner\.temp \}\}\/irv\/before\.json$/);
    expect(preview?.env?.IRV_ACCESS_ROLES_FILE).toMatch(/runner\.temp \}\}\/irv\/roles\.json$/);
  });

  it("applies on pushes to main", () => {
    expect(workflow.on.push.branches).toEqual(["main"]);
    expect(pulumi("'push'")?.with).toMatchObject({ command: "up" });
  });
});

describe("examples/pull-request-checks: the GitLab CI twin", () => {
  const text = read(".gitlab-ci.yml");
  const pipeline = GitlabPipeline.parse(parse(text));
  const job = (name: string) => {
    const j = pipeline[name];
    if (!j) throw new Error(`no job ${name}`);
    return { ...(j.extends ? pipeline[j.extends] : {}), ...j };
  };

  it("declares the provider's default ID token variable with the token-exchange URL as audience in every job", () => {
    for (const name of ["preview", "deploy"])
      expect(job(name).id_tokens).toEqual({ [DEFAULT_GITLAB_TOKEN_VARIABLE]: { aud: "$IRV_AUTH_URL" } });
  });

  it("has no script that reads, fetches or stores a token", () => {
    for (const j of Object.values(pipeline))
      for (const line of [...(j.before_script ?? []), ...(j.script ?? [])]) {
        expect(line).not.toMatch(STORED_TOKEN);
        expect(line).not.toContain(DEFAULT_GITLAB_TOKEN_VARIABLE);
      }
  });

  it("previews with the published policy pack and its config on merge requests", () => {
    const preview = job("preview");
    expect(preview.rules?.map((r) => r.if)).toEqual(['$CI_PIPELINE_SOURCE == "merge_request_event"']);
    expect(preview.script?.join("\n")).toMatch(
      new RegExp(`^pulumi preview .*--policy-pack ${PACK} --policy-pack-config policy-config.json$`, "m"),
    );
  });

  it("posts the access review as one MR note before the gated preview", () => {
    const script = job("preview").script?.join("\n") ?? "";
    expect(script).toMatch(
      /npx pulumi-irv access-review --stack prod --format markdown --gate-inputs \.irv-review > \.irv-review\/access-review\.md\nnode post-review-note\.mjs \.irv-review\/access-review\.md[^\n]*\npulumi preview/,
    );
    expect(job("preview").variables).toMatchObject({
      IRV_ACCESS_BEFORE_FILE: "$CI_PROJECT_DIR/.irv-review/before.json",
    });
    const note = read("post-review-note.mjs");
    expect(note).toContain(`const MARKER = "${REVIEW_MARKER}"`);
    expect(note).toContain("/merge_requests/");
    expect(note).toMatch(/method: mine \? "PUT" : "POST"/);
  });

  it("applies on the default branch", () => {
    const deploy = job("deploy");
    expect(deploy.rules?.map((r) => r.if)).toEqual(["$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH"]);
    expect(deploy.script?.join("\n")).toMatch(/^pulumi up .*--yes/m);
  });
});

describe("examples/pull-request-checks: policy-config.json", () => {
  it("configures only policies and settings that the pack has", () => {
    const config = JSON.parse(read("policy-config.json")) as Record<string, unknown>;
    for (const [name, value] of Object.entries(config)) {
      const policy = byName.get(name);
      expect(policy, `policy ${name}`).toBeDefined();
      if (typeof value === "string") {
        expect(LEVELS).toContain(value);
        continue;
      }
      const { enforcementLevel, ...settings } = value as Record<string, unknown>;
      if (enforcementLevel !== undefined) expect(LEVELS).toContain(enforcementLevel);
      for (const key of Object.keys(settings))
        expect(Object.keys(policy?.configSchema?.properties ?? {}), `${name}.${key}`).toContain(key);
    }
  });
});
