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
  /**
   * The token to send when one is at hand without waiting (a fixed token, or a cached one not yet
   * due for refresh); `undefined` when only {@link getToken} can tell. Lets the client skip the
   * bounded wait it arms around `getToken`, once per request.
   */
  current?(): string | undefined;
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
    current: () => token,
    invalidate: () => false,
    secrets: () => [token],
  };
}
