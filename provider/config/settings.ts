import type { ApiVersion, TokenSource } from "../../sdk/index.js";
import { API_VERSIONS, ConfigurationError, exchangeToken, IrvClient, staticToken } from "../../sdk/index.js";
import type { RequestLimitSettings } from "./request-limits.js";
import { REQUEST_LIMIT_SETTINGS, rateLimiterFor, requestLimitsOf } from "./request-limits.js";
import { chooseWorkloadToken, explainWorkloadFailures, workloadTokenOptions } from "./workload-token.js";

/**
 * The provider's settings, whichever way they were given.
 *
 * @example
 * const settings: IrvSettings = resolveSettings((k) => pulumi.runtime.getConfig(k));
 * const client = clientFor(settings);
 */
export interface IrvSettings extends RequestLimitSettings {
  baseUrl: string | undefined;
  authUrl: string | undefined;
  token: string | undefined;
  identity: string | undefined;
  identityToken: string | undefined;
  identityTokenFile: string | undefined;
  /** `"true"`/`"1"` accepts plain http off loopback (credentials in clear). */
  allowInsecureHttp: string | undefined;
  /** `github-actions`, `gitlab`, `file` or `value`; picked automatically when absent. */
  identityTokenSource: string | undefined;
  /** `aud` of the GitHub Actions token; default the auth URL. */
  identityTokenAudience: string | undefined;
  /** GitLab variable holding the ID token; default `IRV_ID_TOKEN`. */
  identityTokenVariable: string | undefined;
  /** Seconds to wait for each answer of the API (default 60). */
  timeoutSeconds: string | undefined;
  /** The registry host pull tokens are for (default the service's, `cgr.dev`). */
  registryHost: string | undefined;
  /** `v2` (the GA paths, the default) or `v2beta1` (the beta paths). */
  apiVersion: string | undefined;
}

/**
 * Each setting: its stack config key (namespace `irv`), the environment variable used as fallback,
 * and `secret` for a credential (the native plugin's schema marks it so).
 *
 * @example
 * SETTINGS.token.config; // "irv:token"
 * process.env[SETTINGS.token.env]; // the IRV_TOKEN fallback
 */
export const SETTINGS = {
  baseUrl: { config: "irv:baseUrl", env: "IRV_BASE_URL" },
  authUrl: { config: "irv:authUrl", env: "IRV_AUTH_URL" },
  token: { config: "irv:token", env: "IRV_TOKEN", secret: true },
  identity: { config: "irv:identity", env: "IRV_IDENTITY" },
  identityToken: { config: "irv:identityToken", env: "IRV_IDENTITY_TOKEN", secret: true },
  identityTokenFile: { config: "irv:identityTokenFile", env: "IRV_IDENTITY_TOKEN_FILE" },
  allowInsecureHttp: { config: "irv:allowInsecureHttp", env: "IRV_ALLOW_INSECURE_HTTP" },
  identityTokenSource: { config: "irv:identityTokenSource", env: "IRV_IDENTITY_TOKEN_SOURCE" },
  identityTokenAudience: { config: "irv:identityTokenAudience", env: "IRV_IDENTITY_TOKEN_AUDIENCE" },
  identityTokenVariable: { config: "irv:identityTokenVariable", env: "IRV_IDENTITY_TOKEN_VARIABLE" },
  ...REQUEST_LIMIT_SETTINGS,
  timeoutSeconds: { config: "irv:timeoutSeconds", env: "IRV_TIMEOUT_SECONDS" },
  registryHost: { config: "irv:registryHost", env: "IRV_REGISTRY_HOST" },
  apiVersion: { config: "irv:apiVersion", env: "IRV_API_VERSION" },
} as const satisfies Record<keyof IrvSettings, { config: string; env: string; secret?: true }>;

/**
 * Resolves the settings: stack config (`irv:*`) first, the environment (`IRV_*`) as fallback.
 *
 * @example
 * const s = resolveSettings((k) => req.config.get(k));
 */
export function resolveSettings(
  getConfig: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): IrvSettings {
  const pick = (k: keyof IrvSettings) =>
    nonEmpty(getConfig(SETTINGS[k].config)) ?? nonEmpty(env[SETTINGS[k].env]);
  return {
    baseUrl: pick("baseUrl"),
    authUrl: pick("authUrl"),
    token: pick("token"),
    identity: pick("identity"),
    identityToken: pick("identityToken"),
    identityTokenFile: pick("identityTokenFile"),
    allowInsecureHttp: pick("allowInsecureHttp"),
    identityTokenSource: pick("identityTokenSource"),
    identityTokenAudience: pick("identityTokenAudience"),
    identityTokenVariable: pick("identityTokenVariable"),
    maxRequestsPerSecond: pick("maxRequestsPerSecond"),
    maxRetries: pick("maxRetries"),
    retryDelayMs: pick("retryDelayMs"),
    retryMaxDelayMs: pick("retryMaxDelayMs"),
    maxRateLimitWaitSeconds: pick("maxRateLimitWaitSeconds"),
    timeoutSeconds: pick("timeoutSeconds"),
    registryHost: pick("registryHost"),
    apiVersion: pick("apiVersion"),
  };
}

/**
 * Builds the token source the settings describe: an identity exchange when `identity` is set (the
 * workload path, presenting the workload token `chooseWorkloadToken` picks from the settings and the
 * environment `env`), else the static token.
 *
 * @example
 * const auth = tokenSourceFor(resolveSettings(get));
 */
export function tokenSourceFor(s: IrvSettings, env: NodeJS.ProcessEnv = process.env): TokenSource {
  if (s.identity) {
    if (!s.authUrl)
      throw new ConfigurationError(
        "irv:identity is set but irv:authUrl (IRV_AUTH_URL) is not: the token exchange needs it",
      );
    if (!s.baseUrl) throw new ConfigurationError("irv:baseUrl (IRV_BASE_URL) is required");
    const workload = chooseWorkloadToken(s, env);
    const exchange = exchangeToken({
      authUrl: s.authUrl,
      baseUrl: s.baseUrl,
      identity: s.identity,
      ...workloadTokenOptions(s, env, workload),
      allowInsecureHttp: insecureHttpAllowed(s),
    });
    return explainWorkloadFailures(exchange, s, workload);
  }
  if (s.token) return staticToken(s.token);
  throw new ConfigurationError(
    "no IRV credentials: set irv:token (secret) or IRV_TOKEN, or irv:identity with irv:identityTokenFile/irv:identityToken (IRV_IDENTITY, IRV_IDENTITY_TOKEN_FILE) or run in a GitHub Actions or GitLab CI job",
  );
}

const clients = new Map<string, IrvClient>();

/**
 * One client per distinct settings in a process, so that the three resource kinds and every data
 * source share connections, the cached exchanged token and the rate limiter.
 *
 * @example
 * const client = clientFor(resolveSettings(get));
 */
export function clientFor(s: IrvSettings): IrvClient {
  const key = JSON.stringify(s);
  let client = clients.get(key);
  if (!client) {
    if (!s.baseUrl)
      throw new ConfigurationError("irv:baseUrl (IRV_BASE_URL) is required: the URL of the IRV API");
    const limits = requestLimitsOf(s);
    client = new IrvClient({
      baseUrl: s.baseUrl,
      auth: tokenSourceFor(s),
      allowInsecureHttp: insecureHttpAllowed(s),
      userAgent: "pulumi-irv",
      retry: limits.retry,
      // One limiter per client, and one client per settings in a process: every request of a
      // provider process with the same credentials shares it.
      rateLimiter: rateLimiterFor(limits),
      timeoutMs: timeoutMsOf(s),
      apiVersion: apiVersionOf(s),
    });
    clients.set(key, client);
  }
  return client;
}

/**
 * Whether the settings opt in to plain http off loopback (`irv:allowInsecureHttp` true or 1).
 *
 * @example
 * insecureHttpAllowed(resolveSettings(get, { IRV_ALLOW_INSECURE_HTTP: "1" })); // true
 */
export function insecureHttpAllowed(s: IrvSettings): boolean {
  const v = s.allowInsecureHttp?.trim().toLowerCase();
  if (v === undefined || v === "false" || v === "0") return false;
  if (v === "true" || v === "1") return true;
  throw new ConfigurationError(
    `irv:allowInsecureHttp (IRV_ALLOW_INSECURE_HTTP) must be true/1 or false/0, got ${JSON.stringify(s.allowInsecureHttp)}`,
  );
}

/**
 * The per-answer timeout the settings ask for, in ms (undefined: the client's default).
 *
 * @example
 * timeoutMsOf(resolveSettings(get)); // 60000 for irv:timeoutSeconds "60"
 */
export function timeoutMsOf(s: IrvSettings): number | undefined {
  if (s.timeoutSeconds === undefined) return undefined;
  const seconds = Number(s.timeoutSeconds);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new ConfigurationError(
      `irv:timeoutSeconds (IRV_TIMEOUT_SECONDS) must be a positive number of seconds (got ${JSON.stringify(s.timeoutSeconds)})`,
    );
  return Math.round(seconds * 1000);
}

/**
 * The API version the settings ask for: `v2` (the GA paths) unless `irv:apiVersion` says `v2beta1`.
 *
 * @example
 * apiVersionOf(resolveSettings(get, { IRV_API_VERSION: "v2beta1" })); // "v2beta1"
 */
export function apiVersionOf(s: IrvSettings): ApiVersion {
  const v = s.apiVersion?.trim();
  if (v === undefined) return "v2";
  if ((API_VERSIONS as readonly string[]).includes(v)) return v as ApiVersion;
  throw new ConfigurationError(
    `irv:apiVersion (IRV_API_VERSION) must be one of ${API_VERSIONS.join(", ")}, got ${JSON.stringify(s.apiVersion)}`,
  );
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === "" ? undefined : v;
}
