/**
 * Where the client gets its bearer token. `invalidate` is called after a 401 so that the next
 * `getToken` fetches a fresh one.
 *
 * @example
 * const source: TokenSource = staticToken(process.env.IRV_TOKEN!);
 */
export interface TokenSource {
  getToken(signal?: AbortSignal): Promise<string>;
  /** Drops a cached token; returns true when a fresh one may differ (worth one more try). */
  invalidate(): boolean;
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
  };
}
