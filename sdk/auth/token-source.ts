/**
 * Where the client gets its bearer token. `invalidate` is called after a 401 so that the next
 * `getToken` fetches a fresh one.
 *
 * @example
 * const source: TokenSource = staticToken(process.env.IRV_TOKEN!);
 */
export interface TokenSource {
  /**
   * The token to send. `signal` aborts this caller's wait only: a fetch shared with other callers
   * goes on for them.
   */
  getToken(signal?: AbortSignal): Promise<string>;
  /** Drops a cached token; returns true when a fresh one may differ (worth one more try). */
  invalidate(): boolean;
  /**
   * Every credential value this source has sent or handed out (workload tokens, API tokens), so
   * that the client can redact them by value from any error or event.
   */
  secrets?(): readonly string[];
}

/**
 * A fixed API token (from `irv:token` / `IRV_TOKEN`). A 401 is final: there is nothing to refresh.
 *
 * @example
 * new IrvClient({ baseUrl, auth: staticToken("…") });
 */
export function staticToken(token: string): TokenSource {
  return {
    getToken: async () => token,
    invalidate: () => false,
    secrets: () => [token],
  };
}
