// The CI systems' workload token sources of pulumi-irv/sdk, exchanged at the real emulator's STS: a
// loopback fake of the GitHub Actions token endpoint (signing with the emulator's local issuer), and a
// GitLab ID token in an environment variable.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../../emulator/index.js";
import { startEmulator } from "../../../emulator/index.js";
import {
  ApiError,
  ConfigurationError,
  exchangeToken,
  githubActionsToken,
  gitlabToken,
  IrvClient,
} from "../../../sdk/index.js";
import type { FakeGithubOidc } from "../../e2e/support/github-actions-oidc.js";
import { startFakeGithubOidc } from "../../e2e/support/github-actions-oidc.js";

const SUBJECT = "repo:acme/infra:ref:refs/heads/main";
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

describe("CI workload token sources against the emulator's STS", () => {
  let emulator: EmulatorHandle;
  let admin: IrvClient;
  let github: FakeGithubOidc;
  let identity: string;

  beforeAll(async () => {
    emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
    admin = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
    const id = await admin.identities.create(emulator.orgUid, {
      name: "pipeline",
      claimMatch: { issuer: emulator.issuerUrl, subject: SUBJECT },
    });
    const viewer = (await admin.roles.list({ name: "viewer" })).items[0]!;
    await admin.roleBindings.create(emulator.orgUid, { identityUid: id.uid, roleUid: viewer.uid });
    identity = id.uid;
    github = await startFakeGithubOidc(emulator, { subject: SUBJECT, ttlSeconds: 60 });
  });

  afterAll(async () => {
    await github?.close();
    await admin?.close();
    await emulator?.close();
  });

  const clientWith = (identityTokenSource: ReturnType<typeof gitlabToken>) =>
    new IrvClient({
      baseUrl: emulator.baseUrl,
      auth: exchangeToken({
        authUrl: emulator.authUrl,
        baseUrl: emulator.baseUrl,
        identity,
        identityTokenSource,
      }),
    });

  describe("githubActionsToken", () => {
    it("fetches a fresh OIDC token for the exchange's audience at every exchange", async () => {
      const before = github.issued.length;
      const auth = exchangeToken({
        authUrl: emulator.authUrl,
        baseUrl: emulator.baseUrl,
        identity,
        identityTokenSource: githubActionsToken({ audience: emulator.authUrl, env: github.env }),
      });
      const client = new IrvClient({ baseUrl: emulator.baseUrl, auth });
      expect((await client.roles.list({ name: "viewer" })).items).toHaveLength(1);
      auth.invalidate();
      expect((await client.groups.get(emulator.orgUid)).uid).toBe(emulator.orgUid);
      await client.close();
      const mine = github.issued.slice(before);
      expect(mine).toHaveLength(2);
      expect(mine.map((t) => t.audience)).toEqual([emulator.authUrl, emulator.authUrl]);
      expect(mine[0]?.token).not.toBe(mine[1]?.token);
    });

    it("says the job lacks `permissions: id-token: write` when the request URL is absent", async () => {
      const source = githubActionsToken({
        audience: emulator.authUrl,
        env: { ACTIONS_ID_TOKEN_REQUEST_TOKEN: github.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN },
      });
      const error = await source.getToken().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(
        /GitHub Actions .*ACTIONS_ID_TOKEN_REQUEST_URL is not set.*`permissions: id-token: write`/,
      );
      expect((error as Error).message).not.toContain(github.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN);
    });

    it.each([
      [401, "a request token that is not the job's"],
      [403, "a job without the permission"],
    ] as const)(
      "explains a %i from the token endpoint (%s) without showing the request token",
      async (status, _why) => {
        const env =
          status === 401
            ? { ...github.env, ACTIONS_ID_TOKEN_REQUEST_TOKEN: "not-the-job-token" }
            : github.env;
        if (status === 403) github.refuseWith(403);
        try {
          const error = await githubActionsToken({ audience: emulator.authUrl, env })
            .getToken()
            .catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ConfigurationError);
          const message = (error as Error).message;
          expect(message).toContain(`refused to issue a token (HTTP ${status}`);
          expect(message).toContain("`permissions: id-token: write`");
          expect(message).not.toContain(env.ACTIONS_ID_TOKEN_REQUEST_TOKEN);
        } finally {
          github.refuseWith(undefined);
        }
      },
    );

    it("never sends the request token over plain http to another machine", async () => {
      const env = {
        ...github.env,
        ACTIONS_ID_TOKEN_REQUEST_URL: "http://pipelines.example/idtoken?api-version=2.0",
      };
      await expect(githubActionsToken({ audience: emulator.authUrl, env }).getToken()).rejects.toThrow(
        "GitHub Actions: ACTIONS_ID_TOKEN_REQUEST_URL must be an https URL (got http://pipelines.example)",
      );
    });

    it("is refused by the STS when asked for another audience", async () => {
      const client = clientWith(
        githubActionsToken({ audience: "https://sts.elsewhere.example", env: github.env }),
      );
      const error = await client.roles.list().catch((e: unknown) => e);
      await client.close();
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).codeName).toBe("UNAUTHENTICATED");
      expect((error as Error).message).toMatch(/audience/);
      expect((error as Error).message).not.toMatch(JWT);
    });
  });

  describe("gitlabToken", () => {
    const mint = (ttlSeconds: number) => emulator.mintIdentityToken({ subject: SUBJECT, ttlSeconds });

    it("presents the ID token of the job's variable at each exchange", async () => {
      const token = await mint(600);
      const client = clientWith(gitlabToken({ env: { IRV_ID_TOKEN: token } }));
      expect((await client.roles.list({ name: "viewer" })).items).toHaveLength(1);
      await client.close();
    });

    it("reads the variable named by `variable`", async () => {
      const token = await mint(600);
      expect(await gitlabToken({ variable: "DEPLOY_TOKEN", env: { DEPLOY_TOKEN: token } }).getToken()).toBe(
        token,
      );
    });

    it("says that the job's token expired and that GitLab tokens last the job", async () => {
      const token = await mint(60);
      const later = Date.now() + 120_000;
      const error = await gitlabToken({ env: { IRV_ID_TOKEN: token }, now: () => later })
        .getToken()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(
        /GitLab CI: the job's ID token in IRV_ID_TOKEN expired at .*last as long as the job's timeout/,
      );
      expect((error as Error).message).not.toContain(token);
    });

    it("names the variable and `id_tokens:` when the variable is absent or not a token", async () => {
      await expect(gitlabToken({ env: {} }).getToken()).rejects.toThrow(
        /GitLab CI gave this job no ID token: the variable IRV_ID_TOKEN is not set.*`id_tokens:`/,
      );
      await expect(gitlabToken({ env: { IRV_ID_TOKEN: "s3cr3t-not-a-jwt" } }).getToken()).rejects.toThrow(
        /IRV_ID_TOKEN does not hold an ID token \(a JWT\).*`id_tokens:`/,
      );
    });
  });
});
