import { setTimeout as sleep } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { Agent } from "undici";
import type { z } from "zod";
import type { TokenSource } from "../auth/token-source.js";
import { ApiError, InvalidResponseError, NetworkError } from "../errors/api-error.js";
import { Code } from "../errors/codes.js";
import { redactError, redactValues } from "../errors/redact.js";
import { httpCall, isTimeout, TOKEN_TIMEOUT } from "../http/http-call.js";
import { checkedBaseUrl } from "../http/secure-url.js";
import type { QueryValue } from "../pagination/list-query.js";
import type { RetryDecision, RetryPolicy } from "../retry/should-retry.js";
import { DEFAULT_RETRY_POLICY, shouldRetry } from "../retry/should-retry.js";
import { formatZodIssues } from "../schemas/zod-issues.js";
import { AdaptiveRateLimiter } from "./adaptive-rate-limiter.js";

const DEFAULT_TIMEOUT_MS = 60_000;

type Out<S extends z.ZodType | undefined> = S extends z.ZodType ? z.output<S> : undefined;

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
  /** An array value repeats its key once per value. */
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** Schema of the success body; undefined for an empty answer (delete). */
  schema: S;
  signal?: AbortSignal | undefined;
  /** Overrides the client's policy for this call. */
  retry?: Readonly<RetryPolicy> | undefined;
  /**
   * For a request that is not safe to repeat (a create): called when an attempt's outcome is
   * unknown (the connection broke after sending, or 14/8 was answered) and when a resend after
   * that is answered ALREADY_EXISTS. Returns what the lost attempt made (`send` then returns it),
   * or undefined when it made nothing (the request is then resent, now known to be safe). An error
   * thrown here ends the call.
   */
  onOutcomeUnknown?: (() => Promise<Out<S> | undefined>) | undefined;
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
  /**
   * Accept a plain-http base URL that is not loopback (the token would travel in clear). Off by
   * default; the provider sets it from `irv:allowInsecureHttp` / `IRV_ALLOW_INSECURE_HTTP=1`.
   */
  allowInsecureHttp?: boolean | undefined;
  auth: TokenSource;
  /** undici dispatcher (keep-alive agent by default); inject a MockAgent or a proxy agent. */
  dispatcher?: Dispatcher | undefined;
  retry?: Readonly<RetryPolicy> | undefined;
  /**
   * Paces the requests (shared by every request of this transport): adapts to the service's rate
   * limit, under an optional explicit cap. Default: a new unlimited {@link AdaptiveRateLimiter}.
   */
  rateLimiter?: AdaptiveRateLimiter | undefined;
  /** Time to wait for response headers, and between body chunks, in ms (default 60 s). */
  timeoutMs?: number | undefined;
  userAgent?: string | undefined;
  onEvent?: ((e: TransportEvent) => void) | undefined;
  /** Sleep, injectable so that unit tests of retries don't wait. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
}

/**
 * The HTTP layer under every operation: bearer auth, JSON bodies, AIP-193 error parsing, the one
 * retry loop of the client (decided by {@link shouldRetry}, with an "outcome unknown" hook for
 * creates), one token refresh after a 401, and response validation that names the JSON path of
 * any mismatch. Every error it throws is redacted by value of every credential it sent.
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
  private readonly sent = new Set<string>();
  readonly rateLimiter: AdaptiveRateLimiter;

  constructor(opts: TransportOptions) {
    checkedBaseUrl(opts.baseUrl, "the API base URL (irv:baseUrl)", opts.allowInsecureHttp ?? false);
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.ownsDispatcher = !opts.dispatcher;
    this.dispatcher = opts.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 16 });
    // A server's Retry-After pauses the limiter no longer than it delays a retry.
    this.rateLimiter =
      opts.rateLimiter ??
      new AdaptiveRateLimiter({ maxPauseMs: (opts.retry ?? DEFAULT_RETRY_POLICY).maxDelayMs });
  }

  /**
   * Sends one logical request (several attempts when retries apply) and returns the parsed body.
   *
   * @example
   * await transport.send({ method: "DELETE", path, schema: undefined });
   */
  async send<S extends z.ZodType | undefined>(req: TransportRequest<S>): Promise<Out<S>> {
    try {
      return await this.loop(req);
    } catch (e) {
      throw redactError(e, this.secrets());
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

  private async loop<S extends z.ZodType | undefined>(req: TransportRequest<S>): Promise<Out<S>> {
    const policy = req.retry ?? this.opts.retry ?? DEFAULT_RETRY_POLICY;
    const random = this.opts.random;
    const url = this.url(req.path, req.query);
    let refreshed = false;
    // Set once an attempt may have taken effect without our seeing the answer.
    let maybeDone = false;
    const turn = this.rateLimiter.turn();
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let token: string;
      try {
        // The token after the wait for a slot, so that a long queue under a rate limit does not
        // send a token that expired while it waited.
        await turn.ready(req.signal);
        token = await this.token(req.signal);
        this.sent.add(token);
      } catch (error) {
        turn.answered(error);
        // The token source failed: nothing was sent, so any method may try again, but a token
        // service that did not answer in time is not waited for once more.
        const decision: RetryDecision = isTimeout(error)
          ? { retry: false, reason: "the token service did not answer in time" }
          : shouldRetry({
              method: req.method,
              attempt,
              error,
              policy,
              safeToRepeat: true,
              ...(random ? { random } : {}),
            });
        await this.failed(req, attempt, undefined, started, error, decision, "getting an API token failed: ");
        continue;
      }
      let status: number | undefined;
      try {
        const answer = await httpCall({
          method: req.method,
          url,
          path: req.path,
          headers: this.headers(token, req.body !== undefined),
          body: req.body === undefined ? undefined : JSON.stringify(req.body),
          dispatcher: this.dispatcher,
          timeoutMs: this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          signal: req.signal,
        });
        status = answer.status;
        turn.answered();
        const parsed = this.parse(req, answer.text) as Out<S>;
        this.emit(req, attempt, status, started);
        return parsed;
      } catch (error) {
        if (error instanceof ApiError) status = error.httpStatus;
        // Refused by the service's rate limit before any work: sent again at the limiter's pace,
        // whatever the method, without a lost-create lookup and without using up an attempt.
        if (turn.answered(error)) {
          this.emit(req, attempt--, status, started, 0, (error as Error).message);
          continue;
        }
        if (status === 401 && !refreshed && this.opts.auth.invalidate()) {
          // An exchanged token may have expired early or been revoked: exchange once more, then believe the 401.
          refreshed = true;
          attempt--;
          this.emit(req, attempt + 1, status, started, 0, "401, refreshing the token");
          continue;
        }
        let safeToRepeat = false;
        const conflict = maybeDone && error instanceof ApiError && error.code === Code.ALREADY_EXISTS;
        if (req.onOutcomeUnknown && (conflict || outcomeUnknown(error))) {
          maybeDone = true;
          const found = await req.onOutcomeUnknown();
          if (found !== undefined) {
            this.emit(req, attempt, status, started, undefined, "outcome unknown: found what it made");
            return found;
          }
          if (conflict) {
            this.emit(req, attempt, status, started, undefined, (error as Error).message);
            throw error;
          }
          safeToRepeat = true;
        }
        const decision = shouldRetry({
          method: req.method,
          attempt,
          error,
          policy,
          safeToRepeat,
          ...(random ? { random } : {}),
        });
        await this.failed(req, attempt, status, started, error, decision);
      }
    }
  }

  /** Waits before the next attempt, or throws the final error saying how many attempts and why. */
  private async failed(
    req: TransportRequest<z.ZodType | undefined>,
    attempt: number,
    status: number | undefined,
    started: number,
    error: unknown,
    decision: RetryDecision,
    prefix = "",
  ): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    if (decision.retry) {
      this.emit(req, attempt, status, started, decision.delayMs, prefix + message);
      const wait =
        this.opts.sleep ??
        ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, signal ? { signal } : {}));
      await wait(decision.delayMs, req.signal);
      return;
    }
    this.emit(req, attempt, status, started, undefined, prefix + message);
    if (error instanceof Error && !(error instanceof InvalidResponseError)) {
      const transient = error instanceof NetworkError || (error instanceof ApiError && isTransient(error));
      const why =
        attempt > 1 || transient
          ? ` (gave up after ${attempt} attempt${attempt > 1 ? "s" : ""}: ${decision.reason})`
          : "";
      // A token source hands the same error to every caller sharing its fetch: each gets its own copy.
      const own = prefix ? cloneError(error) : error;
      own.message = `${prefix}${error.message}${why}`;
      throw own;
    }
    throw error;
  }

  // The caller waits for a token no longer than for an answer (and not past its own signal); a
  // fetch shared with other callers goes on for them. The timer is cleared as soon as the token is
  // there: an `AbortSignal.timeout` would stay armed for the whole timeout after every request
  // (3,000 live timers, each with a weak reference the collector tends, during a refresh of 3,000).
  private async token(signal: AbortSignal | undefined): Promise<string> {
    // A token at hand needs no bounded wait: no timer and no controller on every request.
    const ready = this.opts.auth.current?.();
    if (ready !== undefined) {
      signal?.throwIfAborted();
      return ready;
    }
    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = new AbortController();
    const pending = setTimeout(
      () => timer.abort(new DOMException(`no API token within ${timeoutMs} ms`, "TimeoutError")),
      timeoutMs,
    );
    try {
      return await this.opts.auth.getToken(signal ? AbortSignal.any([signal, timer.signal]) : timer.signal);
    } catch (e) {
      if (!timer.signal.aborted || signal?.aborted) throw e;
      throw new NetworkError(`no API token within ${timeoutMs} ms`, false, TOKEN_TIMEOUT, { cause: e });
    } finally {
      clearTimeout(pending);
    }
  }

  private secrets(): string[] {
    return [...this.sent, ...(this.opts.auth.secrets?.() ?? [])];
  }

  private headers(token: string, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (this.opts.userAgent) headers["user-agent"] = this.opts.userAgent;
    if (hasBody) headers["content-type"] = "application/json";
    return headers;
  }

  private url(path: string, query: TransportRequest<z.ZodType | undefined>["query"]): URL {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (Array.isArray(v)) for (const item of v as readonly string[]) url.searchParams.append(k, item);
      else if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
    }
    return url;
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
    if (r.success) return withoutUndefined(r.data);
    const issues = formatZodIssues(r.error, "(body)");
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
      path: redactValues(req.path, this.secrets()),
      attempt,
      status,
      durationMs: Math.round(performance.now() - started),
    };
    if (retryInMs !== undefined) e.retryInMs = retryInMs;
    if (error !== undefined) e.error = redactValues(error, this.secrets());
    this.opts.onEvent(e);
  }
}

// Same class and fields, so `instanceof` and `code` still work.
function cloneError<E extends Error>(e: E): E {
  return Object.defineProperties(
    Object.create(Object.getPrototypeOf(e)),
    Object.getOwnPropertyDescriptors(e),
  );
}

function isTransient(e: ApiError): boolean {
  return e.code === Code.UNAVAILABLE || e.code === Code.RESOURCE_EXHAUSTED;
}

// A POST whose effect we cannot know: the connection broke after sending, or the service (or a
// proxy in front of it) answered 14/8, possibly after acting.
function outcomeUnknown(e: unknown): boolean {
  return (e instanceof NetworkError && e.sent) || (e instanceof ApiError && isTransient(e));
}

// What the lenient readers read as absent (`null`, `""`) is left out, not kept as a key holding
// `undefined`: callers test presence with `in`, and the Pulumi engine's property maps cannot carry
// `undefined` ("Unexpected struct type"). `Object.fromEntries` keeps a `__proto__` key a plain key.
// An answer with no such key (most of them) is returned as parsed, not copied.
function withoutUndefined(value: unknown): unknown {
  return holdsUndefined(value) ? copyWithoutUndefined(value) : value;
}

function holdsUndefined(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(holdsUndefined);
  for (const v of Object.values(value)) if (v === undefined || holdsUndefined(v)) return true;
  return false;
}

function copyWithoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyWithoutUndefined);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, copyWithoutUndefined(v)]),
  );
}
