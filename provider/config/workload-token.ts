import type { ExchangeTokenOptions, TokenSource } from "../../sdk/index.js";
import {
  ApiError,
  Code,
  ConfigurationError,
  DEFAULT_GITLAB_TOKEN_VARIABLE,
  GITHUB_ACTIONS_ENV,
  githubActionsToken,
  gitlabToken,
  IrvError,
} from "../../sdk/index.js";

/**
 * The settings that say which workload token to present (a subset of the provider's settings).
 *
 * @example
 * const s: WorkloadTokenSettings = resolveSettings(get);
 */
export interface WorkloadTokenSettings {
  authUrl: string | undefined;
  identityToken: string | undefined;
  identityTokenFile: string | undefined;
  identityTokenSource: string | undefined;
  identityTokenAudience: string | undefined;
  identityTokenVariable: string | undefined;
}

/**
 * Where the workload's OIDC token comes from when an identity is assumed (`irv:identityTokenSource`
 * / `IRV_IDENTITY_TOKEN_SOURCE`).
 *
 * @example
 * const kind: WorkloadTokenKind = "github-actions";
 */
export type WorkloadTokenKind = "github-actions" | "gitlab" | "file" | "value";

/** What the exchange needs from one kind of workload token. */
interface WorkloadTokenKindRules {
  /** Who provides the token, in messages. */
  label: string;
  /** Whether the environment shows this CI system (only CI systems are picked automatically). */
  detect?: (env: NodeJS.ProcessEnv, s: WorkloadTokenSettings) => string | undefined;
  /** The exchange options that present this kind of token, or a message naming what is missing. */
  options: (s: WorkloadTokenSettings, env: NodeJS.ProcessEnv) => Partial<ExchangeTokenOptions>;
  /** What to check when the token exchange refuses the token. */
  refusalHint: (s: WorkloadTokenSettings) => string;
}

const CLAIM_MATCH_HINT = "and the identity's claimMatch must equal the token's iss and sub";

const KINDS: Record<WorkloadTokenKind, WorkloadTokenKindRules> = {
  "github-actions": {
    label: "GitHub Actions",
    detect: (env) =>
      evidence(env, GITHUB_ACTIONS_ENV.marker, [
        GITHUB_ACTIONS_ENV.requestUrl,
        GITHUB_ACTIONS_ENV.requestToken,
      ]),
    options: (s, env) => ({ identityTokenSource: githubActionsToken({ audience: audienceOf(s), env }) }),
    refusalHint: (s) =>
      `The GitHub Actions token was requested for audience ${JSON.stringify(audienceOf(s))}: set irv:identityTokenAudience (IRV_IDENTITY_TOKEN_AUDIENCE) to the audience the token exchange expects (default: irv:authUrl), ${CLAIM_MATCH_HINT}`,
  },
  gitlab: {
    label: "GitLab CI",
    detect: (env, s) => evidence(env, "GITLAB_CI", [variableOf(s)]),
    options: (s, env) => ({ identityTokenSource: gitlabToken({ variable: variableOf(s), env }) }),
    refusalHint: (s) =>
      `The GitLab CI token came from ${variableOf(s)} (irv:identityTokenVariable): its \`aud:\` under the job's \`id_tokens:\` must be the audience the token exchange expects (irv:authUrl), ${CLAIM_MATCH_HINT}`,
  },
  file: {
    label: "the identity token file",
    options: (s) => {
      if (!s.identityTokenFile)
        throw new ConfigurationError(
          "irv:identityTokenSource is file but irv:identityTokenFile (IRV_IDENTITY_TOKEN_FILE) is not set",
        );
      return { identityTokenFile: s.identityTokenFile };
    },
    refusalHint: () =>
      `Check the token in irv:identityTokenFile (IRV_IDENTITY_TOKEN_FILE): it must be unexpired, ${CLAIM_MATCH_HINT}`,
  },
  value: {
    label: "irv:identityToken",
    options: (s) => {
      if (!s.identityToken)
        throw new ConfigurationError(
          "irv:identityTokenSource is value but irv:identityToken (IRV_IDENTITY_TOKEN) is not set",
        );
      return { identityToken: s.identityToken };
    },
    refusalHint: () =>
      `Check irv:identityToken (IRV_IDENTITY_TOKEN): it must be unexpired, ${CLAIM_MATCH_HINT}`,
  },
};

const SOURCE_SETTING = "irv:identityTokenSource (IRV_IDENTITY_TOKEN_SOURCE)";

/**
 * Which workload token the exchange presents, and why: `irv:identityTokenSource` when set;
 * else the token file or value when one is given; else the one CI system the environment shows.
 *
 * @example
 * chooseWorkloadToken(settings, { GITHUB_ACTIONS: "true" }); // { kind: "github-actions", why: "…" }
 */
export function chooseWorkloadToken(
  s: WorkloadTokenSettings,
  env: NodeJS.ProcessEnv,
): { kind: WorkloadTokenKind; why: string } {
  if (s.identityTokenSource !== undefined) {
    if (!Object.hasOwn(KINDS, s.identityTokenSource))
      throw new ConfigurationError(
        `${SOURCE_SETTING} must be one of ${Object.keys(KINDS).join(", ")} (got ${JSON.stringify(s.identityTokenSource)})`,
      );
    const kind = s.identityTokenSource as WorkloadTokenKind;
    return { kind, why: `${SOURCE_SETTING} is ${kind}` };
  }
  if (s.identityTokenFile) return { kind: "file", why: "irv:identityTokenFile is set" };
  if (s.identityToken) return { kind: "value", why: "irv:identityToken is set" };
  const found = Object.entries(KINDS).flatMap(([kind, rules]) => {
    const evidence = rules.detect?.(env, s);
    return evidence ? [{ kind: kind as WorkloadTokenKind, evidence }] : [];
  });
  const [only, ...others] = found;
  if (only && others.length === 0)
    return {
      kind: only.kind,
      why: `picked automatically because ${only.evidence}; choose another with ${SOURCE_SETTING}`,
    };
  if (only)
    throw new ConfigurationError(
      `irv:identity is set and the environment shows several CI systems (${found.map((f) => `${KINDS[f.kind].label}: ${f.evidence}`).join("; ")}): choose the workload token with ${SOURCE_SETTING}`,
    );
  throw new ConfigurationError(
    `irv:identity is set but no workload token is given: set irv:identityTokenFile (IRV_IDENTITY_TOKEN_FILE) or irv:identityToken (IRV_IDENTITY_TOKEN), or run in GitHub Actions (with \`permissions: id-token: write\`) or GitLab CI (with an \`id_tokens:\` entry ${DEFAULT_GITLAB_TOKEN_VARIABLE}), or choose with ${SOURCE_SETTING}`,
  );
}

/**
 * The part of the exchange options that presents the chosen workload token.
 *
 * @example
 * exchangeToken({ authUrl, baseUrl, identity, ...workloadTokenOptions(settings, process.env, choice) });
 */
export function workloadTokenOptions(
  s: WorkloadTokenSettings,
  env: NodeJS.ProcessEnv,
  choice: { kind: WorkloadTokenKind },
): Partial<ExchangeTokenOptions> {
  return KINDS[choice.kind].options(s, env);
}

/**
 * Wraps the exchange so that its failures say where the workload token came from and what to change:
 * a CI system's missing variable or refusal gets the reason it was chosen; a refusal by the token
 * exchange (code 16 or 7) also gets the setting to check. Messages stay free of credentials.
 *
 * @example
 * const auth = explainWorkloadFailures(exchangeToken(options), settings, choice);
 */
export function explainWorkloadFailures(
  exchange: TokenSource,
  s: WorkloadTokenSettings,
  choice: { kind: WorkloadTokenKind; why: string },
): TokenSource {
  // Concurrent callers share one exchange, hence one error object: explain it once.
  const explained = new WeakSet<Error>();
  const rules = KINDS[choice.kind];
  return {
    async getToken(signal) {
      try {
        return await exchange.getToken(signal);
      } catch (e) {
        if (e instanceof IrvError && !explained.has(e)) {
          explained.add(e);
          const refused =
            e instanceof ApiError && (e.code === Code.UNAUTHENTICATED || e.code === Code.PERMISSION_DENIED);
          if (refused)
            e.message = `the token exchange refused the workload token from ${rules.label}: ${e.message}. ${rules.refusalHint(s)} (workload token: ${choice.why})`;
          else if (e instanceof ConfigurationError)
            e.message = `${e.message} (workload token: ${choice.why})`;
        }
        throw e;
      }
    },
    // Forwarded, not dropped: the client skips its bounded wait for a cached token, and redacts
    // every credential the exchange has seen (the workload tokens as well as the API tokens).
    current: () => exchange.current?.(),
    invalidate: () => exchange.invalidate(),
    secrets: () => exchange.secrets?.() ?? [],
  };
}

// What shows a CI system: its marker variable set to "true", or one of the variables it gives the job.
function evidence(env: NodeJS.ProcessEnv, marker: string, variables: readonly string[]): string | undefined {
  if (env[marker] === "true") return `${marker}=true`;
  const present = variables.find((v) => env[v]);
  return present === undefined ? undefined : `${present} is set`;
}

function audienceOf(s: WorkloadTokenSettings): string {
  return s.identityTokenAudience ?? (s.authUrl ?? "").replace(/\/+$/, "");
}

function variableOf(s: WorkloadTokenSettings): string {
  return s.identityTokenVariable ?? DEFAULT_GITLAB_TOKEN_VARIABLE;
}
