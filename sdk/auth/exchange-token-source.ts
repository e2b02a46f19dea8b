import { readFile } from "node:fs/promises";
import { type Dispatcher, request } from "undici";
import { z } from "zod";
import { ApiError, ConfigurationError, NetworkError } from "../errors/api-error.js";
import type { TokenSource } from "./token-source.js";

/**
 * Options of {@link exchangeToken}.
 *
 * @example
 * const options: ExchangeTokenOptions = {
 *   authUrl: "https://auth.irv.example",
 *   baseUrl: "https://api.irv.example",
 *   identity: identityUid,
 *   identityTokenFile: process.env.IRV_IDENTITY_TOKEN_FILE,
 * };
 * const client = new IrvClient({ baseUrl: options.baseUrl, auth: exchangeToken(options) });
 */
export interface ExchangeTokenOptions {
  /** Token-exchange base URL (`irv:authUrl` / `IRV_AUTH_URL`). */
  authUrl: string;
  /** API base URL: the audience of the API token asked for. */
  baseUrl: string;
  /** Uid of the identity to assume (`irv:identity` / `IRV_IDENTITY`). */
  identity: string;
  /** The workload's OIDC token, as a value… */
  identityToken?: string | undefined;
  /** …or a file holding it, re-read on every exchange (CI systems rotate these files). */
  identityTokenFile?: string | undefined;
  /**
   * …or a source asked for a workload token at every exchange (a CI system's: see
   * {@link githubActionsToken} and {@link gitlabToken}). Takes precedence over the two above.
   */
  identityTokenSource?: TokenSource | undefined;
  /**
   * Refresh this long before `exp` (default 5 minutes), but never earlier than halfway through the
   * token's lifetime: a token that lives less than twice this long is still reused for half its life.
   */
  refreshBeforeMs?: number;
  dispatcher?: Dispatcher | undefined;
  /** Clock, injectable for tests. */
  now?: () => number;
}

const ExchangeResponse = z.object({ token: z.string().min(1) });
// Without `exp` we cannot know when the token dies; the spec says exchanged tokens live one hour.
const DEFAULT_LIFETIME_MS = 60 * 60 * 1000;

/**
 * A token source that assumes an identity: it presents the workload's OIDC token at
 * `{authUrl}/sts/exchange?aud={baseUrl}&identity=<uid>`, caches the API token and exchanges again
 * shortly before it expires (read from the token's `exp`) or after a 401. Concurrent callers share
 * one exchange.
 *
 * @example
 * const auth = exchangeToken({ authUrl, baseUrl, identity: "…/…", identityTokenFile: "/var/run/oidc/token" });
 * const client = new IrvClient({ baseUrl, auth });
 */
export function exchangeToken(options: ExchangeTokenOptions): TokenSource {
  if (!options.identityToken && !options.identityTokenFile && !options.identityTokenSource)
    throw new ConfigurationError(
      "assuming an identity needs the workload's OIDC token: set irv:identityToken (IRV_IDENTITY_TOKEN) or irv:identityTokenFile (IRV_IDENTITY_TOKEN_FILE)",
    );
  const now = options.now ?? Date.now;
  const refreshBeforeMs = options.refreshBeforeMs ?? 5 * 60 * 1000;
  let cached: { token: string; refreshAt: number } | undefined;
  let inflight: Promise<string> | undefined;

  const exchange = async (signal?: AbortSignal): Promise<string> => {
    const idToken = options.identityTokenSource
      ? await options.identityTokenSource.getToken(signal)
      : options.identityTokenFile
        ? (await readIdentityTokenFile(options.identityTokenFile)).trim()
        : (options.identityToken ?? "");
    const url = new URL(`${options.authUrl.replace(/\/$/, "")}/sts/exchange`);
    url.searchParams.set("aud", options.baseUrl);
    url.searchParams.set("identity", options.identity);
    const path = `${url.pathname}?aud=${options.baseUrl}&identity=${options.identity}`;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: "GET",
        headers: { authorization: `Bearer ${idToken}`, accept: "application/json" },
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (e) {
      throw new NetworkError(
        `token exchange at ${options.authUrl} failed: ${(e as Error).message}`,
        false,
        (e as { code?: string }).code,
        { cause: e },
      );
    }
    const text = await res.body.text();
    if (res.statusCode >= 400)
      throw ApiError.fromResponse({
        method: "GET",
        path,
        httpStatus: res.statusCode,
        body: text,
        requestId: header(res, "x-request-id"),
      });
    const parsed = ExchangeResponse.safeParse(safeJson(text));
    if (!parsed.success)
      throw new NetworkError(
        `token exchange at ${options.authUrl} answered without a token`,
        true,
        undefined,
      );
    const token = parsed.data.token;
    const receivedAt = now();
    let expiresAt = receivedAt + DEFAULT_LIFETIME_MS;
    try {
      // Loaded here, not at module load: only identity exchange needs jose, and every provider
      // process start pays for what it imports.
      const { decodeJwt } = await import("jose");
      const exp = decodeJwt(token).exp;
      if (typeof exp === "number") expiresAt = exp * 1000;
    } catch {
      // An opaque (non-JWT) token: keep the documented one-hour lifetime.
    }
    // With a lifetime shorter than twice the margin, refreshing `refreshBeforeMs` before exp would
    // mean exchanging before every request: refresh at half-life instead.
    const margin = Math.min(refreshBeforeMs, Math.max(0, (expiresAt - receivedAt) / 2));
    cached = { token, refreshAt: expiresAt - margin };
    return token;
  };

  return {
    async getToken(signal) {
      if (cached && now() < cached.refreshAt) return cached.token;
      inflight ??= exchange(signal).finally(() => {
        inflight = undefined;
      });
      return inflight;
    },
    invalidate() {
      cached = undefined;
      return true;
    },
  };
}

async function readIdentityTokenFile(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new ConfigurationError(
      `cannot read the identity token file ${file} (irv:identityTokenFile): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function header(res: Dispatcher.ResponseData, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
