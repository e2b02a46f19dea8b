import type { Dispatcher } from "undici";
import { getGlobalDispatcher } from "undici";
import { ApiError, NetworkError } from "../errors/api-error.js";

/**
 * One HTTP exchange as {@link httpCall} performs it.
 *
 * @example
 * const call: HttpCall = {
 *   method: "GET",
 *   url: new URL(`${authUrl}/sts/exchange?aud=…&identity=…`),
 *   path: "/auth/sts/exchange",
 *   headers: { authorization: `Bearer ${idToken}` },
 *   timeoutMs: 30_000,
 * };
 */
export interface HttpCall {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  url: URL;
  /** How the request is named in errors (no query secrets). */
  path: string;
  headers: Record<string, string>;
  /** JSON text. */
  body?: string | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Longest wait for the response headers, and between body chunks. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * A 2xx answer.
 *
 * @example
 * const { text } = await httpCall(call);
 */
export interface HttpAnswer {
  status: number;
  text: string;
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
 * `NetworkError.errorCode` of a token that did not come within the client's timeout.
 *
 * @example
 * if (err instanceof NetworkError && err.errorCode === TOKEN_TIMEOUT) console.error("the token service is slow");
 */
export const TOKEN_TIMEOUT = "IRV_TOKEN_TIMEOUT";

const TIMEOUTS = new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  TOKEN_TIMEOUT,
]);

/**
 * Sends one request and reads the whole answer. Only a 2xx is success: any other status, a
 * redirect included, is an {@link ApiError} carrying it. Redirects are never followed (undici's
 * `request` does not, and we add no redirect interceptor), so credentials never go to another
 * address. Every wait is bounded by `timeoutMs`; `signal` aborts.
 *
 * @example
 * const answer = await httpCall({ method: "DELETE", url, path, headers, timeoutMs: 60_000 });
 */
export async function httpCall(call: HttpCall): Promise<HttpAnswer> {
  const res = await exchange(call);
  if (res.status >= 200 && res.status < 300) return { status: res.status, text: res.text };
  throw ApiError.fromResponse({
    method: call.method,
    path: call.path,
    httpStatus: res.status,
    body: res.text,
    requestId: header(res.headers, "x-request-id"),
    retryAfterMs: parseRetryAfter(header(res.headers, "retry-after")),
    location: header(res.headers, "location"),
    url: withoutQuery(call.url),
  });
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * One exchange through the dispatcher's handler interface, the body gathered as it comes. undici's
 * `request()` does the same through a Readable stream, an abort listener and a body mixin per
 * answer: a third of the client's CPU per call for answers of a few hundred bytes, paid once per
 * resource in a refresh or a destroy. A failure after the status line is marked as such (the
 * request was certainly sent).
 */
function exchange(call: HttpCall): Promise<{ status: number; headers: Headers; text: string }> {
  const { signal } = call;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let controller: Dispatcher.DispatchController | undefined;
    let started = false;
    let status = 0;
    let headers: Headers = {};
    const chunks: Buffer[] = [];
    const onAbort = () => controller?.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const settled = () => signal?.removeEventListener("abort", onAbort);
    const dispatcher = call.dispatcher ?? getGlobalDispatcher();
    try {
      dispatcher.dispatch(
        {
          origin: call.url.origin,
          path: `${call.url.pathname}${call.url.search}`,
          method: call.method,
          headers: call.headers,
          headersTimeout: call.timeoutMs,
          bodyTimeout: call.timeoutMs,
          ...(call.body !== undefined ? { body: call.body } : {}),
        },
        {
          onRequestStart(c) {
            controller = c;
            if (signal?.aborted) c.abort(signal.reason);
          },
          onResponseStart(_c, statusCode, responseHeaders) {
            // 1xx (informational) answers are followed by the real one.
            if (statusCode < 200) return;
            started = true;
            status = statusCode;
            headers = responseHeaders as Headers;
          },
          onResponseData(_c, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            settled();
            resolve({ status, headers, text: utf8(chunks) });
          },
          onResponseError(_c, error) {
            settled();
            reject(toNetworkError(error, call, started));
          },
        },
      );
    } catch (error) {
      settled();
      reject(toNetworkError(error, call));
    }
  });
}

// The body as text, a UTF-8 byte order mark dropped (as undici's `text()` does).
function utf8(chunks: Buffer[]): string {
  const buf = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  return buf.toString("utf8", bom ? 3 : 0);
}

/**
 * Whether a failure is a timeout of ours (no answer in time), as opposed to a refusal or a reset.
 *
 * @example
 * if (isTimeout(err)) console.error("the service did not answer in time");
 */
export function isTimeout(e: unknown): boolean {
  return e instanceof NetworkError && e.errorCode !== undefined && TIMEOUTS.has(e.errorCode);
}

function toNetworkError(e: unknown, call: HttpCall, afterHeaders = false): unknown {
  if (e instanceof Error && (e.name === "AbortError" || e.name === "TimeoutError")) return e;
  const code = errorCode(e);
  const sent = afterHeaders || !code || !NOT_SENT.has(code);
  const why =
    code && TIMEOUTS.has(code)
      ? `no answer within ${call.timeoutMs} ms (${code})`
      : (code ?? (e as Error).message);
  return new NetworkError(`${call.method} ${call.path}: ${why}`, sent, code, {
    cause: e,
    url: withoutQuery(call.url),
  });
}

// For messages: the address without the query (filters, the exchange's audience and identity).
function withoutQuery(url: URL): string {
  return `${url.origin}${url.pathname}`;
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
