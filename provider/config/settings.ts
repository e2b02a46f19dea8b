import {
  ConfigurationError,
  exchangeToken,
  IrvClient,
  staticToken,
  type TokenSource,
} from "../../sdk/index.js";

/**
 * The provider's settings, whichever way they were given.
 *
 * @example
 * const settings: IrvSettings = resolveSettings((k) => pulumi.runtime.getConfig(k));
 * const client = clientFor(settings);
 */
export interface IrvSettings {
  baseUrl: string | undefined;
  authUrl: string | undefined;
  token: string | undefined;
  identity: string | undefined;
  identityToken: string | undefined;
  identityTokenFile: string | undefined;
  /** `"true"`/`"1"` accepts plain http off loopback (credentials in clear). */
  allowInsecureHttp: string | undefined;
}

/**
 * Each setting: its stack config key (namespace `irv`) and the environment variable used as fallback.
 *
 * @example
 * SETTINGS.token.config; // "irv:token"
 * process.env[SETTINGS.token.env]; // the IRV_TOKEN fallback
 */
export const SETTINGS = {
  baseUrl: { config: "irv:baseUrl", env: "IRV_BASE_URL" },
  authUrl: { config: "irv:authUrl", env: "IRV_AUTH_URL" },
  token: { config: "irv:token", env: "IRV_TOKEN" },
  identity: { config: "irv:identity", env: "IRV_IDENTITY" },
  identityToken: { config: "irv:identityToken", env: "IRV_IDENTITY_TOKEN" },
  identityTokenFile: { config: "irv:identityTokenFile", env: "IRV_IDENTITY_TOKEN_FILE" },
  allowInsecureHttp: { config: "irv:allowInsecureHttp", env: "IRV_ALLOW_INSECURE_HTTP" },
} as const satisfies Record<keyof IrvSettings, { config: string; env: string }>;

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
  };
}

/**
 * Builds the token source the settings describe: an identity exchange when `identity` is set (the
 * workload path), else the static token.
 *
 * @example
 * const auth = tokenSourceFor(resolveSettings(get));
 */
export function tokenSourceFor(s: IrvSettings): TokenSource {
  if (s.identity) {
    if (!s.authUrl)
      throw new ConfigurationError(
        "irv:identity is set but irv:authUrl (IRV_AUTH_URL) is not: the token exchange needs it",
      );
    if (!s.baseUrl) throw new ConfigurationError("irv:baseUrl (IRV_BASE_URL) is required");
    return exchangeToken({
      authUrl: s.authUrl,
      baseUrl: s.baseUrl,
      identity: s.identity,
      identityToken: s.identityToken,
      identityTokenFile: s.identityTokenFile,
      allowInsecureHttp: insecureHttpAllowed(s),
    });
  }
  if (s.token) return staticToken(s.token);
  throw new ConfigurationError(
    "no IRV credentials: set irv:token (secret) or IRV_TOKEN, or irv:identity with irv:identityTokenFile/irv:identityToken (IRV_IDENTITY, IRV_IDENTITY_TOKEN_FILE)",
  );
}

const clients = new Map<string, IrvClient>();

/**
 * One client per distinct settings in a process, so that the three resource kinds and every data
 * source share connections and the cached exchanged token.
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
    client = new IrvClient({
      baseUrl: s.baseUrl,
      auth: tokenSourceFor(s),
      allowInsecureHttp: insecureHttpAllowed(s),
      userAgent: "pulumi-irv",
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

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === "" ? undefined : v;
}
