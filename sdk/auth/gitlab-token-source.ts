import { ConfigurationError } from "../errors/api-error.js";
import type { TokenSource } from "./token-source.js";

/**
 * The variable a GitLab job declares under `id_tokens:` for IRV, unless told otherwise.
 *
 * @example
 * process.env[DEFAULT_GITLAB_TOKEN_VARIABLE]; // the job's ID token for IRV
 */
export const DEFAULT_GITLAB_TOKEN_VARIABLE = "IRV_ID_TOKEN";

/**
 * Options of {@link gitlabToken}.
 *
 * @example
 * const options: GitlabTokenOptions = { variable: "IRV_ID_TOKEN" };
 */
export interface GitlabTokenOptions {
  /** The variable holding the ID token (a key of the job's `id_tokens:`). Default `IRV_ID_TOKEN`. */
  variable?: string | undefined;
  /** Where the variable is read, at every call. Default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Clock, injectable for tests. */
  now?: () => number;
}

/**
 * The ID token of the running GitLab CI job, from the variable the job declares under `id_tokens:`
 * (GitLab mints it when the job starts, with the `aud` the job asks for). It cannot be renewed
 * inside the job: it lasts as long as the job's timeout, and an expired one is refused here with a
 * message saying so, before the token exchange would refuse it. Give it to {@link exchangeToken} as
 * `identityTokenSource`. Messages never include the token.
 *
 * @example
 * // .gitlab-ci.yml:  id_tokens: { IRV_ID_TOKEN: { aud: https://auth.irv.example } }
 * const auth = exchangeToken({ authUrl, baseUrl, identity: identityUid, identityTokenSource: gitlabToken() });
 */
export function gitlabToken(options: GitlabTokenOptions = {}): TokenSource {
  const variable = options.variable ?? DEFAULT_GITLAB_TOKEN_VARIABLE;
  const now = options.now ?? Date.now;
  return {
    async getToken() {
      const token = (options.env ?? process.env)[variable]?.trim();
      if (!token)
        throw new ConfigurationError(
          `GitLab CI gave this job no ID token: the variable ${variable} is not set; declare it under the job's \`id_tokens:\` (\`${variable}: { aud: <the token-exchange URL> }\`)`,
        );
      // Loaded here, like the exchange does: only CI pipelines need jose for this.
      const { decodeJwt } = await import("jose");
      let exp: number | undefined;
      try {
        exp = decodeJwt(token).exp;
      } catch {
        throw new ConfigurationError(
          `GitLab CI: the variable ${variable} does not hold an ID token (a JWT); declare it under the job's \`id_tokens:\` rather than as a CI/CD variable`,
        );
      }
      if (exp !== undefined && exp * 1000 <= now())
        throw new ConfigurationError(
          `GitLab CI: the job's ID token in ${variable} expired at ${new Date(exp * 1000).toISOString()}. GitLab ID tokens last as long as the job's timeout and cannot be renewed inside the job: raise the job's \`timeout:\` or split the work into shorter jobs`,
        );
      return token;
    },
    // The variable holds the only token this job will get.
    invalidate: () => false,
  };
}
