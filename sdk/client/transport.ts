import { setTimeout as sleep } from "node:timers/promises";
import { Agent, type Dispatcher, request } from "undici";
import type { z } from "zod";
import type { TokenSource } from "../auth/token-source.js";
import { ApiError, InvalidResponseError, NetworkError } from "../errors/api-error.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy, shouldRetry } from "../retry/should-retry.js";

/**
 * One request as the transport sees it.
 *
 * @example
 * const req: TransportRequest<typeof RoleSchema> = {
 *   method: "GET",
 *   path: `/iam/v2beta1/roles/${roleUid}`, // role uids are flat hex: nothing to escape
 *   schema: RoleSchema,
 * };
 * const role = await transport.send(req);
 */
export interface TransportRequest<S extends z.ZodType | undefined> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Path relative to the base URL, already escaped. */
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  /** Schema of the success body; undefined for an empty answer (delete). */
  schema: S;
  signal?: AbortSignal | undefined;
  /** Overrides the client's policy for this call. */
  retry?: Readonly<RetryPolicy> | undefined;
}

/**
 * What the transport reports after each attempt (for debug logs and tests). No credentials.
 *
 * @example
 * const client = new IrvClient({
 *   baseUrl,
 *   token,
 *   onEvent: (e: TransportEvent) => console.debug(e.method, e.path, e.attempt, e.status ?? e.error),
 * });
 */
export interface TransportEvent {
  method: string;
  path: string;
  attempt: number;
  /** HTTP status, or undefined when no answer came. */
  status: number | undefined;
  durationMs: number;
  /** Set when the attempt failed and another follows after `retryInMs`. */
  retryInMs?: number;
  error?: string;
}

/**
 * Options of {@link HttpTransport}.
 *
 * @example
 * // In a unit test: answers from a MockAgent, retries without waiting.
 * const transport = new HttpTransport({
 *   baseUrl: "http://irv.test",
 *   auth: staticToken("test-token"),
 *   dispatcher: mockAgent,
 *   sleep: async () => {},
 * });
 */
export interface TransportOptions {
  baseUrl: string;
  auth: TokenSource;
  /** undici dispatcher (keep-alive agent by default); inject a MockAgent or a proxy agent. */
  dispatcher?: Dispatcher | undefined;
  retry?: Readonly<RetryPolicy> | undefined;
  /** Time to wait for response headers, and between body chunks, in ms (default 60 s). */
  timeoutMs?: number | undefined;
  userAgent?: string | undefined;
  onEvent?: ((e: TransportEvent) => void) | undefined;
  /** Sleep, injectable so that unit tests of retries don't wait. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
}

// Connection-level failures where the request certainly never left (safe to resend even a POST).
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * The HTTP layer under every operation: bearer auth, JSON bodies, AIP-193 error parsing, retries
 * decided by {@link shouldRetry}, one token refresh after a 401, and response validation that
 * names the JSON path of any mismatch.
 *
 * @example
 * const t = new HttpTransport({ baseUrl, auth: staticToken(token) });
 * const group = await t.send({ method: "GET", path: "/iam/v2beta1/groups/abc…", schema: GroupSchema });
 */
export class HttpTransport {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly opts: TransportOptions;

  constructor(opts: TransportOptions) {
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.ownsDispatcher = !opts.dispatcher;
    this.dispatcher = opts.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  }

  /**
   * Sends one logical request (several attempts when retries apply) and returns the parsed body.
   *
   * @example
   * await transport.send({ method: "DELETE", path, schema: undefined });
   */
  async send<S extends z.ZodType | undefined>(
    req: TransportRequest<S>,
  ): Promise<S extends z.ZodType ? z.output<S> : undefined> {
    const policy = req.retry ?? this.opts.retry ?? DEFAULT_RETRY_POLICY;
    const wait =
      this.opts.sleep ??
      ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, signal ? { signal } : {}));
    const url = this.url(req.path, req.query);
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let status: number | undefined;
      try {
        const token = await this.opts.auth.getToken(req.signal);
        const res = await this.attempt(req, url, token);
        status = res.status;
        if (res.status === 401 && !refreshed && this.opts.auth.invalidate()) {
          // An exchanged token may have expired early or been revoked: exchange once more, then believe the 401.
          refreshed = true;
          attempt--;
          this.emit(req, attempt + 1, status, started, 0, "401, refreshing the token");
          continue;
        }
        if (res.status >= 400)
          throw ApiError.fromResponse({
            method: req.method,
            path: req.path,
            httpStatus: res.status,
            body: res.text,
            requestId: res.requestId,
            retryAfterMs: res.retryAfterMs,
          });
        this.emit(req, attempt, status, started);
        return this.parse(req, res.text) as S extends z.ZodType ? z.output<S> : undefined;
      } catch (error) {
        const decision = shouldRetry({
          method: req.method,
          attempt,
          error,
          policy,
          ...(this.opts.random ? { random: this.opts.random } : {}),
        });
        if (!decision.retry) {
          this.emit(req, attempt, status, started, undefined, (error as Error).message);
          throw error;
        }
        this.emit(req, attempt, status, started, decision.delayMs, (error as Error).message);
        await wait(decision.delayMs, req.signal);
      }
    }
  }

  /**
   * Closes the connection pool (only when the transport created it).
   *
   * @example
   * await transport.close();
   */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private url(path: string, query: TransportRequest<z.ZodType | undefined>["query"]): URL {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {}))
      if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
    return url;
  }

  private async attempt(req: TransportRequest<z.ZodType | undefined>, url: URL, token: string) {
    const timeout = this.opts.timeoutMs ?? 60_000;
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (this.opts.userAgent) headers["user-agent"] = this.opts.userAgent;
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers["content-type"] = "application/json";
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: req.method,
        headers,
        dispatcher: this.dispatcher,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        ...(body !== undefined ? { body } : {}),
        ...(req.signal ? { signal: req.signal } : {}),
      });
    } catch (e) {
      throw toNetworkError(e, req.method, req.path);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (e) {
      throw toNetworkError(e, req.method, req.path, true);
    }
    return {
      status: res.statusCode,
      text,
      requestId: header(res.headers, "x-request-id"),
      retryAfterMs: parseRetryAfter(header(res.headers, "retry-after")),
    };
  }

  private parse(req: TransportRequest<z.ZodType | undefined>, text: string): unknown {
    if (!req.schema) return undefined;
    let json: unknown;
    try {
      json = text === "" ? {} : JSON.parse(text);
    } catch {
      throw new InvalidResponseError(`${req.method} ${req.path}: response is not JSON`, ["(body): not JSON"]);
    }
    const r = req.schema.safeParse(json);
    if (r.success) return r.data;
    const issues = r.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(body)"}: ${i.message}`);
    throw new InvalidResponseError(
      `${req.method} ${req.path}: response does not match the contract: ${issues.join("; ")}`,
      issues,
    );
  }

  private emit(
    req: TransportRequest<z.ZodType | undefined>,
    attempt: number,
    status: number | undefined,
    started: number,
    retryInMs?: number,
    error?: string,
  ) {
    if (!this.opts.onEvent) return;
    const e: TransportEvent = {
      method: req.method,
      path: req.path,
      attempt,
      status,
      durationMs: Math.round(performance.now() - started),
    };
    if (retryInMs !== undefined) e.retryInMs = retryInMs;
    if (error !== undefined) e.error = error;
    this.opts.onEvent(e);
  }
}

function toNetworkError(e: unknown, method: string, path: string, afterHeaders = false): unknown {
  if (e instanceof Error && e.name === "AbortError") return e;
  const code = errorCode(e);
  const sent = afterHeaders || !code || !NOT_SENT.has(code);
  return new NetworkError(`${method} ${path}: ${code ?? (e as Error).message}`, sent, code, { cause: e });
}

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; cur = (cur as { cause?: unknown }).cause, depth++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === "string") return c;
  }
  return undefined;
}

function header(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Parses a `Retry-After` header (seconds or an HTTP date) into ms.
 *
 * @example
 * parseRetryAfter("2"); // 2000
 */
export function parseRetryAfter(v: string | undefined, now = Date.now()): number | undefined {
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}
