// Which workload token the provider presents when it assumes an identity: irv:identityTokenSource,
// else a given token or file, else the one CI system the environment shows.
import { describe, expect, it } from "vitest";
import {
  chooseWorkloadToken,
  explainWorkloadFailures,
  resolveSettings,
  tokenSourceFor,
} from "../../../provider/config/index.js";
import type { TokenSource } from "../../../sdk/index.js";
import { ApiError, Code, IrvClient, Status } from "../../../sdk/index.js";
import { GROUP, mockApi, status } from "../sdk/mock-api.js";

const BASE = {
  IRV_BASE_URL: "http://127.0.0.1:1",
  IRV_AUTH_URL: "http://127.0.0.1:1/auth",
  IRV_IDENTITY: "org/ci",
};
const GITHUB = {
  ACTIONS_ID_TOKEN_REQUEST_URL: "http://127.0.0.1:1/idtoken?api-version=2.0",
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: "rt",
};

const choose = (env: NodeJS.ProcessEnv, config: Record<string, string> = {}) =>
  chooseWorkloadToken(
    resolveSettings((k) => config[k], { ...BASE, ...env }),
    { ...BASE, ...env },
  );

describe("chooseWorkloadToken", () => {
  it("picks GitHub Actions from the ACTIONS_* variables alone", () => {
    expect(choose(GITHUB)).toMatchObject({
      kind: "github-actions",
      why: expect.stringMatching(/automatically/),
    });
  });

  it("names the variable that showed GitHub Actions", () => {
    expect(choose({ ACTIONS_ID_TOKEN_REQUEST_TOKEN: "rt" }).why).toContain(
      "ACTIONS_ID_TOKEN_REQUEST_TOKEN is set",
    );
  });

  it("picks GitHub Actions from GITHUB_ACTIONS=true even without the request variables", () => {
    expect(choose({ GITHUB_ACTIONS: "true" })).toMatchObject({
      kind: "github-actions",
      why: expect.stringContaining("GITHUB_ACTIONS=true"),
    });
  });

  it("picks GitLab from GITLAB_CI or from the ID token variable, including a renamed one", () => {
    expect(choose({ GITLAB_CI: "true" }).kind).toBe("gitlab");
    expect(choose({ IRV_ID_TOKEN: "x" }).kind).toBe("gitlab");
    expect(choose({ DEPLOY_ID: "x" }, { "irv:identityTokenVariable": "DEPLOY_ID" }).kind).toBe("gitlab");
  });

  it("prefers a given token file or value over the CI environment", () => {
    expect(choose({ ...GITHUB, IRV_IDENTITY_TOKEN_FILE: "/run/token" }).kind).toBe("file");
    expect(choose({ GITLAB_CI: "true", IRV_IDENTITY_TOKEN: "t" }).kind).toBe("value");
  });

  it("follows irv:identityTokenSource over everything, config before IRV_IDENTITY_TOKEN_SOURCE", () => {
    expect(
      choose({ ...GITHUB, IRV_IDENTITY_TOKEN_FILE: "/f" }, { "irv:identityTokenSource": "gitlab" }),
    ).toEqual({
      kind: "gitlab",
      why: "irv:identityTokenSource (IRV_IDENTITY_TOKEN_SOURCE) is gitlab",
    });
    expect(choose({ IRV_IDENTITY_TOKEN_SOURCE: "github-actions" }).kind).toBe("github-actions");
  });

  it("refuses to guess when the environment shows two CI systems, naming both and the setting", () => {
    expect(() => choose({ ...GITHUB, GITLAB_CI: "true" })).toThrow(
      /several CI systems \(GitHub Actions: .*; GitLab CI: GITLAB_CI=true\).*irv:identityTokenSource/,
    );
  });

  it("names every way to give a workload token when there is none", () => {
    expect(() => choose({})).toThrow(
      /no workload token .*irv:identityTokenFile.*irv:identityToken.*GitHub Actions.*GitLab CI.*irv:identityTokenSource/,
    );
  });

  it("rejects an unknown irv:identityTokenSource, listing the allowed values", () => {
    expect(() => choose({}, { "irv:identityTokenSource": "circleci" })).toThrow(
      'irv:identityTokenSource (IRV_IDENTITY_TOKEN_SOURCE) must be one of github-actions, gitlab, file, value (got "circleci")',
    );
  });

  it("asks for the file or value an explicit file or value source needs", () => {
    expect(() =>
      tokenSourceFor(
        resolveSettings(() => undefined, { ...BASE, IRV_IDENTITY_TOKEN_SOURCE: "file" }),
        BASE,
      ),
    ).toThrow(
      /irv:identityTokenSource is file but irv:identityTokenFile \(IRV_IDENTITY_TOKEN_FILE\) is not set/,
    );
  });
});

describe("tokenSourceFor with a CI workload token", () => {
  it("says why GitHub Actions was used when its token cannot be had", async () => {
    const env = { ...BASE, GITHUB_ACTIONS: "true" };
    const error = await tokenSourceFor(
      resolveSettings(() => undefined, env),
      env,
    )
      .getToken()
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN are not set.*id-token: write.*\(workload token: picked automatically because GITHUB_ACTIONS=true; choose another with irv:identityTokenSource/,
    );
  });
});

describe("explainWorkloadFailures", () => {
  const refusal = () =>
    new ApiError({
      method: "GET",
      path: "/auth/sts/exchange",
      httpStatus: 401,
      status: Status.parse({ code: Code.UNAUTHENTICATED, message: "the identity token's audience is not x" }),
    });
  const failing = (error: Error): TokenSource => ({
    getToken: () => Promise.reject(error),
    invalidate: () => true,
  });
  const env = { ...BASE, IRV_ID_TOKEN: "t" };
  const settings = resolveSettings(() => undefined, env);

  it("adds the GitLab hint and the reason for the pick to a refusal by the token exchange", async () => {
    const source = explainWorkloadFailures(failing(refusal()), settings, chooseWorkloadToken(settings, env));
    await expect(source.getToken()).rejects.toThrow(
      /^the token exchange refused the workload token from GitLab CI: .*audience is not x.*The GitLab CI token came from IRV_ID_TOKEN \(irv:identityTokenVariable\): its `aud:` under the job's `id_tokens:`/,
    );
  });

  it("regression (hint repeated per waiting caller): explains an error shared by concurrent callers once", async () => {
    const shared = refusal();
    const source = explainWorkloadFailures(failing(shared), settings, { kind: "gitlab", why: "test" });
    await Promise.allSettled([source.getToken(), source.getToken(), source.getToken()]);
    expect(shared.message.split("the token exchange refused").length - 1).toBe(1);
  });
});

describe("explainWorkloadFailures, around a client", () => {
  const env = { ...BASE, IRV_ID_TOKEN: "t" };
  const settings = resolveSettings(() => undefined, env);
  const WORKLOAD = "workload-token-never-shown-0123";

  it("regression (workload token unredacted): the client redacts what the exchange saw, and sends its cached token", async () => {
    // The wrapper once kept only getToken and invalidate: the client could not learn the exchange's
    // credentials, so a workload token echoed in an answer reached the error in plain text.
    const exchange: TokenSource = {
      getToken: () => Promise.reject(new Error("no fetch: the cached token is at hand")),
      current: () => "cached-api-token-456789",
      invalidate: () => true,
      secrets: () => [WORKLOAD, "cached-api-token-456789"],
    };
    const auth = explainWorkloadFailures(exchange, settings, { kind: "gitlab", why: "test" });
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({
        path: `/iam/v2/groups/${GROUP.uid}`,
        method: "GET",
        headers: { authorization: "Bearer cached-api-token-456789" },
      })
      .reply(400, status(Code.INVALID_ARGUMENT, `the request carried ${WORKLOAD}`));
    const client = new IrvClient({ baseUrl: origin, auth, dispatcher: agent });
    const error = await client.groups.get(GROUP.uid).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/the request carried/);
    expect(error?.message).not.toContain(WORKLOAD);
  });
});
