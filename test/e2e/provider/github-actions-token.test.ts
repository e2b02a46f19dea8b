// A GitHub Actions job with no secret and no curl step: the stack gets only IRV_BASE_URL, IRV_AUTH_URL,
// IRV_IDENTITY and the job's two ACTIONS_ID_TOKEN_REQUEST_* variables. The provider and the program
// ask the (fake, loopback) GitHub token endpoint for a fresh OIDC token at every exchange. Times are
// scaled down from the 2-minute workload token / 1-minute API token / 4-minute run to
// seconds: the workload token lives 3 s, the API token 2 s, and the up outlives both several times.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationResult, TestStack } from "../harness/index.js";
import { diagnostics } from "../harness/index.js";
import { ciJobShape, ciJobStack, EXCHANGE, slowUp } from "../support/ci-job.js";
import type { FakeGithubOidc } from "../support/github-actions-oidc.js";
import { startFakeGithubOidc } from "../support/github-actions-oidc.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { pipelineIdentity } from "../support/workload-identity.js";

const WORKLOAD_TTL_SECONDS = 3;
const API_TTL_SECONDS = 2;
const SUBJECT = "repo:acme/infra:ref:refs/heads/main";
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;
// How many of the run's error diagnostics hold `part`: the CLI repeats an error on its progress line
// and in the closing summary, but a failure explained once is one error diagnostic.
const occurrences = (result: OperationResult, part: string) =>
  diagnostics(result.events, "error").filter((d) => d.message.includes(part)).length;

describe("a GitHub Actions job: workload tokens from ACTIONS_ID_TOKEN_REQUEST_* only", () => {
  const shape = ciJobShape("gha");
  let irv: TestEmulator;
  let github: FakeGithubOidc;
  let stack: TestStack;

  beforeAll(async () => {
    irv = await startTestEmulator({ tokenTtlSeconds: API_TTL_SECONDS });
    github = await startFakeGithubOidc(irv.emulator, { subject: SUBJECT, ttlSeconds: WORKLOAD_TTL_SECONDS });
    const identity = await pipelineIdentity(irv, { subject: SUBJECT });
    // No irv:* config at all: the job's environment is everything.
    stack = await ciJobStack(irv, shape, identity, github.env);
  });

  afterAll(async () => {
    irv?.emulator.setFaults("none");
    github?.refuseWith(undefined);
    await stack?.dispose();
    await github?.close();
    await irv?.close();
  });

  const secretsIn = (text: string) => {
    expect(text).not.toContain(github.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN);
    for (const { token } of github.issued) expect(text).not.toContain(token);
    expect(text).not.toMatch(JWT);
  };

  it("runs `pulumi up` past both token lifetimes, presenting a fresh workload token at every exchange", async () => {
    const requests = await slowUp(irv, stack, shape);
    // API tokens ran out and were exchanged again (program + provider process, several lifetimes)…
    expect(requests[EXCHANGE]).toBeGreaterThanOrEqual(4);
    // …each exchange with its own workload token, fetched for the token-exchange URL.
    expect(github.issued).toHaveLength(requests[EXCHANGE] ?? 0);
    expect(new Set(github.issued.map((t) => t.token)).size).toBe(github.issued.length);
    expect(new Set(github.issued.map((t) => t.audience))).toEqual(new Set([irv.emulator.authUrl]));
    // The first workload token had expired before the run ended, and the STS says so: reusing it would
    // have failed the run.
    const first = await fetch(
      `${irv.emulator.authUrl}/sts/exchange?aud=${encodeURIComponent(irv.emulator.baseUrl)}&identity=x`,
      { headers: { authorization: `Bearer ${github.issued[0]?.token}` } },
    );
    expect(first.status).toBe(401);
    expect(await first.text()).toContain("expired");
    secretsIn(JSON.stringify(await stack.exportState()));
  });

  it("says the job lacks `permissions: id-token: write` when ACTIONS_ID_TOKEN_REQUEST_URL is missing", async () => {
    const preview = await stack.preview({
      env: { GITHUB_ACTIONS: "true", ACTIONS_ID_TOKEN_REQUEST_URL: "" },
      allowFailure: true,
    });
    expect(preview.exitCode).not.toBe(0);
    const output = preview.stdout + preview.stderr;
    const message =
      "GitHub Actions gave this job no OIDC token: ACTIONS_ID_TOKEN_REQUEST_URL is not set, so the job lacks `permissions: id-token: write`";
    expect(occurrences(preview, message)).toBe(1);
    expect(output).toContain(
      "(workload token: picked automatically because GITHUB_ACTIONS=true; choose another with irv:identityTokenSource",
    );
    secretsIn(output);
  });

  it.each([
    [401, "a request token that is not this job's"],
    [403, "a job the endpoint refuses"],
  ] as const)("explains a %i from the GitHub token endpoint (%s) at preview", async (status, _why) => {
    if (status === 403) github.refuseWith(403);
    const env = status === 401 ? { ACTIONS_ID_TOKEN_REQUEST_TOKEN: "not-this-jobs-token" } : {};
    const preview = await stack.preview({ env, allowFailure: true });
    github.refuseWith(undefined);
    expect(preview.exitCode).not.toBe(0);
    const output = preview.stdout + preview.stderr;
    expect(output).toContain(`the GitHub Actions OIDC token endpoint (127.0.0.1:`);
    expect(occurrences(preview, `refused to issue a token (HTTP ${status}`)).toBe(1);
    expect(output).toContain("the job needs `permissions: id-token: write`");
    expect(output).not.toContain("not-this-jobs-token");
    secretsIn(output);
  });

  it("names irv:identityTokenAudience when the STS refuses the token's audience", async () => {
    await stack.setConfig({ "irv:identityTokenAudience": "https://sts.elsewhere.example" });
    const preview = await stack.preview({ allowFailure: true });
    await stack.removeConfig("irv:identityTokenAudience");
    expect(preview.exitCode).not.toBe(0);
    const output = preview.stdout + preview.stderr;
    expect(occurrences(preview, "the token exchange refused the workload token from GitHub Actions")).toBe(1);
    expect(output).toContain("UNAUTHENTICATED");
    expect(output).toContain(
      'The GitHub Actions token was requested for audience "https://sts.elsewhere.example": set irv:identityTokenAudience',
    );
    secretsIn(output);
  });
});
