import { readFile } from "node:fs/promises";
import type { Dispatcher } from "undici";
import { z } from "zod";
import { ConfigurationError, NetworkError } from "../errors/api-error.js";
import { redactError } from "../errors/redact.js";
import { httpCall } from "../http/http-call.js";
import { checkedBaseUrl } from "../http/secure-url.js";
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
  /** Longest wait for the exchange's answer headers, and between body chunks (default 30 s). */
  timeoutMs?: number | undefined;
  /** Accept a plain-http `authUrl` off loopback (the workload token would travel in clear). */
  allowInsecureHttp?: boolean | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Clock, injectable for tests. */
  now?: () => number;
}

const ExchangeResponse = z.object({ token: z.string().min(1) });
// Without `exp` we cannot know when the token dies; the spec says exchanged tokens live one hour.
const DEFAULT_LIFETIME_MS = 60 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A token source that assumes an identity: it presents the workload's OIDC token at
 * `{authUrl}/sts/exchange?aud={baseUrl}&identity=<uid>`, caches the API token and exchanges again
 * shortly before it expires (read from the token's `exp`) or after a 401. Concurrent callers share
 * one exchange; one of them aborting does not fail the others. Every wait is bounded by
 * `timeoutMs`, and errors never hold the workload token or an API token.
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
  checkedBaseUrl(options.authUrl, "the token-exchange URL (irv:authUrl)", options.allowInsecureHttp ?? false);
  const now = options.now ?? Date.now;
  const refreshBeforeMs = options.refreshBeforeMs ?? 5 * 60 * 1000;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Every credential value seen, for redaction by value (workload tokens rotate, API tokens renew).
  const seen = new Set<string>();
  if (options.identityToken) seen.add(options.identityToken);
  let cached: { token: string; refreshAt: number } | undefined;
  let shared: { token: Promise<string>; controller: AbortController; waiting: number } | undefined;

  const exchange = async (signal?: AbortSignal): Promise<string> => {
    const idToken = options.identityTokenSource
      ? await options.identityTokenSource.getToken(signal)
      : options.identityTokenFile
        ? (await readIdentityTokenFile(options.identityTokenFile)).trim()
        : (options.identityToken ?? "");
    seen.add(idToken);
    const url = new URL(`${options.authUrl.replace(/\/$/, "")}/sts/exchange`);
    url.searchParams.set("aud", options.baseUrl);
    url.searchParams.set("identity", options.identity);
    const { text } = await httpCall({
      method: "GET",
      url,
      path: `${url.pathname}?aud=${options.baseUrl}&identity=${options.identity}`,
      headers: { authorization: `Bearer ${idToken}`, accept: "application/json" },
      dispatcher: options.dispatcher,
      timeoutMs,
      signal,
    });
    const parsed = ExchangeResponse.safeParse(safeJson(text));
    if (!parsed.success)
      throw new NetworkError(
        `token exchange at ${options.authUrl} answered without a token`,
        true,
        undefined,
      );
    const token = parsed.data.token;
    seen.add(token);
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

  const start = () => {
    const controller = new AbortController();
    const run = {
      controller,
      waiting: 0,
      token: exchange(controller.signal)
        .catch((e: unknown) => {
          throw redactError(e, seen);
        })
        .finally(() => {
          if (shared === run) shared = undefined;
        }),
    };
    return run;
  };

  const current = () => (cached && now() < cached.refreshAt ? cached.token : undefined);
  return {
    async getToken(signal) {
      signal?.throwIfAborted();
      const ready = current();
      if (ready !== undefined) return ready;
      shared ??= start();
      const run = shared;
      run.waiting++;
      if (!signal)
        return run.token.finally(() => {
          run.waiting--;
        });
      // This caller stops waiting when its signal aborts; the exchange goes on for the others and
      // is abandoned only when nobody waits for it any more.
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => {
          if (--run.waiting === 0) run.controller.abort(signal.reason);
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        run.token.then(
          (t) => {
            signal.removeEventListener("abort", onAbort);
            run.waiting--;
            resolve(t);
          },
          (e: unknown) => {
            signal.removeEventListener("abort", onAbort);
            run.waiting--;
            reject(e);
          },
        );
      });
    },
    current,
    invalidate() {
      cached = undefined;
      return true;
    },
    secrets: () => [...seen],
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
