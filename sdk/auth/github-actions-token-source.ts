import type { Dispatcher } from "undici";
import { request } from "undici";
import { z } from "zod";
import { ConfigurationError, NetworkError } from "../errors/api-error.js";
import type { TokenSource } from "./token-source.js";

/**
 * The environment variables through which a GitHub Actions job asks for its OIDC token. The runner
 * sets both only in jobs granted `permissions: id-token: write`.
 *
 * @example
 * process.env[GITHUB_ACTIONS_ENV.requestUrl]; // the token endpoint of this job
 */
export const GITHUB_ACTIONS_ENV = {
  requestUrl: "ACTIONS_ID_TOKEN_REQUEST_URL",
  requestToken: "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  /** `true` in every GitHub Actions job, with or without the OIDC permission. */
  marker: "GITHUB_ACTIONS",
} as const;

/**
 * Options of {@link githubActionsToken}.
 *
 * @example
 * const options: GithubActionsTokenOptions = { audience: "https://auth.irv.example" };
 */
export interface GithubActionsTokenOptions {
  /** The `aud` of the OIDC token: what the token-exchange service expects (usually its URL). */
  audience: string;
  /** Where the `ACTIONS_ID_TOKEN_REQUEST_*` variables are read, at every fetch. Default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  dispatcher?: Dispatcher | undefined;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const TokenResponse = z.object({ value: z.string().min(1) });
const ErrorBody = z.object({ message: z.string() });

/**
 * The OIDC token of the running GitHub Actions job, fetched fresh at every `getToken`
 * (`GET $ACTIONS_ID_TOKEN_REQUEST_URL&audience=<audience>` with the job's request token), so that a
 * token exchange of any run length presents an unexpired token. Give it to {@link exchangeToken} as
 * `identityTokenSource`.
 *
 * Failures say what the job lacks (the request variables are only there with
 * `permissions: id-token: write`) and never include either token.
 *
 * @example
 * const auth = exchangeToken({
 *   authUrl,
 *   baseUrl,
 *   identity: identityUid,
 *   identityTokenSource: githubActionsToken({ audience: authUrl }),
 * });
 * const client = new IrvClient({ baseUrl, auth });
 */
export function githubActionsToken(options: GithubActionsTokenOptions): TokenSource {
  return {
    async getToken(signal) {
      const env = options.env ?? process.env;
      const requestUrl = env[GITHUB_ACTIONS_ENV.requestUrl];
      const requestToken = env[GITHUB_ACTIONS_ENV.requestToken];
      const missing = [
        requestUrl ? undefined : GITHUB_ACTIONS_ENV.requestUrl,
        requestToken ? undefined : GITHUB_ACTIONS_ENV.requestToken,
      ].filter((v) => v !== undefined);
      if (!requestUrl || !requestToken)
        throw new ConfigurationError(
          `GitHub Actions gave this job no OIDC token: ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set, so the job lacks \`permissions: id-token: write\` (add it to the workflow or the job)`,
        );
      let url: URL;
      try {
        url = new URL(requestUrl);
      } catch {
        throw new ConfigurationError(`GitHub Actions: ${GITHUB_ACTIONS_ENV.requestUrl} is not a URL`);
      }
      // The request token is a credential: plain http only to this machine (a test's stand-in).
      if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname)))
        throw new ConfigurationError(
          `GitHub Actions: ${GITHUB_ACTIONS_ENV.requestUrl} must be an https URL (got ${url.protocol}//${url.host})`,
        );
      url.searchParams.set("audience", options.audience);
      const where = `the GitHub Actions OIDC token endpoint (${url.host})`;
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method: "GET",
          headers: { authorization: `bearer ${requestToken}`, accept: "application/json" },
          ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
          ...(signal ? { signal } : {}),
        });
      } catch (e) {
        throw new NetworkError(
          `${where} could not be reached: ${(e as Error).message}`,
          false,
          (e as { code?: string }).code,
          { cause: e },
        );
      }
      const body: unknown = await res.body.json().catch(() => undefined);
      if (res.statusCode === 401 || res.statusCode === 403) {
        const said = ErrorBody.safeParse(body);
        throw new ConfigurationError(
          `${where} refused to issue a token (HTTP ${res.statusCode}${said.success ? `: ${said.data.message}` : ""}): the job needs \`permissions: id-token: write\`, and ${GITHUB_ACTIONS_ENV.requestToken} is only valid in its own job while it runs`,
        );
      }
      if (res.statusCode < 200 || res.statusCode >= 300)
        // Not "sent": no API request went out yet, so the call that needed the token may be retried.
        throw new NetworkError(`${where} answered HTTP ${res.statusCode}`, false, undefined);
      const parsed = TokenResponse.safeParse(body);
      if (!parsed.success) throw new NetworkError(`${where} answered without a token`, false, undefined);
      return parsed.data.value;
    },
    // Every call fetches a fresh token anyway.
    invalidate: () => true,
  };
}
