// A GitLab CI job with no secret: the stack gets only IRV_BASE_URL, IRV_AUTH_URL, IRV_IDENTITY and the
// ID token GitLab puts in IRV_ID_TOKEN (declared under the job's `id_tokens:`; here minted by the
// emulator's local issuer). API tokens live 2 s, so the up exchanges that same ID token again several
// times; an expired ID token is refused at preview with GitLab's reason.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { diagnostics } from "../harness/index.js";
import { ciJobShape, ciJobStack, EXCHANGE, slowUp } from "../support/ci-job.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { pipelineIdentity } from "../support/workload-identity.js";

const API_TTL_SECONDS = 2;
const SUBJECT = "project_path:acme/infra:ref_type:branch:ref:main";
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

describe("a GitLab CI job: the workload token from its id_tokens variable only", () => {
  const shape = ciJobShape("gitlab");
  let irv: TestEmulator;
  let stack: TestStack;
  let idToken: string;

  beforeAll(async () => {
    irv = await startTestEmulator({ tokenTtlSeconds: API_TTL_SECONDS });
    const identity = await pipelineIdentity(irv, { subject: SUBJECT });
    // GitLab mints it for the `aud:` the job declares: the token-exchange URL, the emulator's default.
    idToken = await irv.emulator.mintIdentityToken({ subject: SUBJECT, ttlSeconds: 3600 });
    stack = await ciJobStack(irv, shape, identity, { IRV_ID_TOKEN: idToken });
  });

  afterAll(async () => {
    irv?.emulator.setFaults("none");
    await stack?.dispose();
    await irv?.close();
  });

  it("runs `pulumi up` past several API token lifetimes, exchanging the job's ID token each time", async () => {
    const requests = await slowUp(irv, stack, shape);
    expect(requests[EXCHANGE]).toBeGreaterThanOrEqual(4);
    const state = JSON.stringify(await stack.exportState());
    expect(state).not.toContain(idToken);
    expect(state).not.toMatch(JWT);
  });

  it("says at preview that the job's ID token expired and that GitLab tokens last the job", async () => {
    const expired = await irv.emulator.mintIdentityToken({ subject: SUBJECT, ttlSeconds: 1 });
    await sleep(2_100); // past its `exp` (whole seconds)
    const preview = await stack.preview({ env: { IRV_ID_TOKEN: expired }, allowFailure: true });
    expect(preview.exitCode).not.toBe(0);
    const output = preview.stdout + preview.stderr;
    // One error diagnostic (the CLI repeats an error on its progress line and in the summary).
    expect(
      diagnostics(preview.events, "error").filter((d) =>
        d.message.includes("GitLab CI: the job's ID token in IRV_ID_TOKEN expired at "),
      ),
    ).toHaveLength(1);
    expect(output).toContain(
      "GitLab ID tokens last as long as the job's timeout and cannot be renewed inside the job: raise the job's `timeout:` or split the work into shorter jobs",
    );
    expect(output).toContain("(workload token: picked automatically because IRV_ID_TOKEN is set");
    expect(output).not.toContain(expired);
    expect(output).not.toMatch(JWT);
  });
});
