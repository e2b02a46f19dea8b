// The identity presets against the emulator over HTTP: an identity whose claimMatch a preset made is
// assumed with a GitHub- or GitLab-shaped token the emulator's issuer signs, and refused to the
// same token of a look-alike repository or project.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import { githubActionsClaims, gitlabCiClaims } from "../../../provider/iam/index.js";
import { IrvClient } from "../../../sdk/index.js";

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let admin: IrvClient;

beforeAll(async () => {
  emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
  admin = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
});

afterAll(async () => {
  await admin.close();
  await emulator.close();
});

async function exchange(token: string, identity: string): Promise<number> {
  const url = `${emulator.authUrl}/sts/exchange?aud=${encodeURIComponent(emulator.baseUrl)}&identity=${encodeURIComponent(identity)}`;
  return (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
}

async function mint(subject: string, claims: Record<string, string>): Promise<string> {
  const res = await fetch(`${emulator.issuerUrl}/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ subject, claims }),
  });
  return ((await res.json()) as { token: string }).token;
}

describe("identity presets at the STS", () => {
  it("githubActionsClaims: a reusable workflow's token of acme/a.b gets in, acme/aXb's does not", async () => {
    const workflow = "acme/ci/.github/workflows/deploy.yml@refs/heads/main";
    const claimMatch = await githubActionsClaims({
      repository: "acme/a.b",
      workflowRef: workflow,
      issuer: emulator.issuerUrl,
    });
    const id = await admin.identities.create(emulator.orgUid, { name: "gha-deploy", claimMatch });
    const token = (repo: string) =>
      mint(`repo:${repo}:ref:refs/heads/main`, {
        repository: repo,
        job_workflow_ref: workflow,
        ref: "refs/heads/main",
      });
    expect(await exchange(await token("acme/a.b"), id.uid)).toBe(200);
    expect(await exchange(await token("acme/aXb"), id.uid)).toBe(403);
    // Another workflow of the same repository: refused.
    const other = await mint("repo:acme/a.b:ref:refs/heads/main", {
      repository: "acme/a.b",
      job_workflow_ref: "acme/ci/.github/workflows/other.yml@refs/heads/main",
    });
    expect(await exchange(other, id.uid)).toBe(403);
  });

  it("githubActionsClaims: an environment's exact subject", async () => {
    const claimMatch = await githubActionsClaims({
      repository: "acme/app",
      environment: "production",
      issuer: emulator.issuerUrl,
    });
    const id = await admin.identities.create(emulator.orgUid, { name: "gha-prod", claimMatch });
    expect(await exchange(await mint("repo:acme/app:environment:production", {}), id.uid)).toBe(200);
    expect(await exchange(await mint("repo:acme/app:environment:staging", {}), id.uid)).toBe(403);
  });

  it("gitlabCiClaims: an environment of one project, not of a look-alike", async () => {
    const claimMatch = await gitlabCiClaims({
      project: "acme/a.b",
      environment: "production",
      issuer: emulator.issuerUrl,
    });
    const id = await admin.identities.create(emulator.orgUid, { name: "gitlab-prod", claimMatch });
    const token = (project: string) =>
      mint(`project_path:${project}:ref_type:branch:ref:main`, {
        project_path: project,
        environment: "production",
        ref_type: "branch",
      });
    expect(await exchange(await token("acme/a.b"), id.uid)).toBe(200);
    expect(await exchange(await token("acme/aXb"), id.uid)).toBe(403);
  });

  it("refuses a repository pattern with one message naming the function and the rule", async () => {
    await expect(githubActionsClaims({ repository: "acme/*", ref: "refs/heads/main" })).rejects.toThrow(
      /^irv\.iam\.githubActionsClaims failed: repository must name exactly one repository/,
    );
  });
});
