import type { FieldViolation, PreconditionViolation } from "../schemas/status.js";
import {
  BadRequest,
  ErrorInfo,
  PreconditionFailure,
  RequestInfo,
  RetryInfo,
  Status,
} from "../schemas/status.js";
import type { CodeName } from "./codes.js";
import { Code, codeForHttpStatus, codeName } from "./codes.js";
import { redactSecrets } from "./redact.js";

/**
 * Root of every error the client throws. Messages never hold a credential.
 *
 * @example
 * try { await client.groups.get(uid); } catch (e) { if (e instanceof IrvError) console.error(e.message); }
 */
export class IrvError extends Error {
  override readonly name: string = "IrvError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(redactSecrets(message), options);
  }
}

/**
 * Where a failed request went (path without query secrets).
 *
 * @example
 * const where: RequestSummary = { method: err.method, path: err.path };
 */
export interface RequestSummary {
  method: string;
  path: string;
  /** The absolute URL without its query (`https://irv.example/iam/v2beta1/groups`), for messages. */
  url?: string | undefined;
}

/**
 * What {@link ApiError} is built from.
 *
 * @example
 * new ApiError({
 *   method: "DELETE",
 *   path: `/iam/v2beta1/groups/${uid}`,
 *   httpStatus: 400,
 *   status: Status.parse({ code: Code.FAILED_PRECONDITION, message: "the group is not empty" }),
 * });
 */
export interface ApiErrorInit extends RequestSummary {
  httpStatus: number;
  status: Status;
  requestId?: string | undefined;
  retryAfterMs?: number | undefined;
}

/**
 * An error answered by the API: the AIP-193 body parsed into code, reason, domain, field and
 * precondition violations, plus the HTTP status and the request id.
 *
 * @example
 * try {
 *   await client.groups.delete(uid);
 * } catch (e) {
 *   if (e instanceof ApiError && e.isResourceNotEmpty()) console.log(e.preconditionViolations);
 * }
 */
export class ApiError extends IrvError {
  override readonly name: string = "ApiError";
  /** Canonical RPC code from the body (or implied by the HTTP status when the body has none). */
  readonly code: number;
  /** Name of {@link code}, e.g. `FAILED_PRECONDITION`. */
  readonly codeName: CodeName;
  readonly httpStatus: number;
  /** `ErrorInfo.reason`, e.g. `INVALID_ARGUMENT`. */
  readonly reason: string | undefined;
  /** `ErrorInfo.domain`. */
  readonly domain: string | undefined;
  readonly fieldViolations: readonly FieldViolation[];
  readonly preconditionViolations: readonly PreconditionViolation[];
  /** Server request id (from a RequestInfo detail or the `x-request-id` header). */
  readonly requestId: string | undefined;
  /** Delay the server asked for, in ms: RetryInfo (ms precision) when present, else Retry-After. */
  readonly retryAfterMs: number | undefined;
  /** The server's message, without our prefix. */
  readonly serverMessage: string;
  readonly method: string;
  readonly path: string;
  /** The absolute URL without its query, when the sender knew it. */
  readonly url: string | undefined;
  /** Every detail of the body, known types or not. */
  readonly details: readonly Record<string, unknown>[];

  constructor(init: ApiErrorInit) {
    const { status } = init;
    const info = pick(status.details, ErrorInfo);
    const bad = pick(status.details, BadRequest);
    const pre = pick(status.details, PreconditionFailure);
    const reqInfo = pick(status.details, RequestInfo);
    const retryInfo = pick(status.details, RetryInfo);
    const requestId = reqInfo?.requestId ?? init.requestId;
    const fieldViolations = bad?.fieldViolations ?? [];
    const preconditionViolations = pre?.violations ?? [];
    const name = codeName(status.code);
    const parts = [`${init.method} ${init.path} failed: ${name} (${status.code}): ${status.message}`];
    for (const v of fieldViolations) parts.push(`field ${v.field}: ${v.description}`);
    for (const v of preconditionViolations)
      parts.push(`${v.type}${v.subject ? ` (${v.subject})` : ""}: ${v.description}`);
    if (requestId) parts.push(`request id ${requestId}`);
    super(parts.join("; "));
    this.code = status.code;
    this.codeName = name;
    this.httpStatus = init.httpStatus;
    this.reason = info?.reason;
    this.domain = info?.domain;
    this.fieldViolations = fieldViolations;
    this.preconditionViolations = preconditionViolations;
    this.requestId = requestId;
    // RetryInfo first: Retry-After has whole seconds only, and a rate limit's wait is often 20 ms.
    this.retryAfterMs = parseDuration(retryInfo?.retryDelay) ?? init.retryAfterMs;
    this.serverMessage = redactSecrets(status.message);
    this.method = init.method;
    this.path = redactSecrets(init.path);
    this.url = init.url === undefined ? undefined : redactSecrets(init.url);
    this.details = status.details;
  }

  /**
   * Builds an ApiError from an HTTP error response body (any text). A body that is not an AIP-193
   * status still gives an error, with the code implied by the HTTP status.
   *
   * @example
   * throw ApiError.fromResponse({ method: "GET", path, httpStatus: 503, body: "upstream down" });
   */
  static fromResponse(
    init: RequestSummary & {
      httpStatus: number;
      body: string;
      requestId?: string | undefined;
      retryAfterMs?: number | undefined;
      /** The `Location` header of a redirect. */
      location?: string | undefined;
    },
  ): ApiError {
    const { location, body, ...summary } = init;
    let status: Status | undefined;
    try {
      const parsed = Status.safeParse(JSON.parse(body));
      // A body claiming OK (code 0) on a non-2xx answer is not believed: the status line wins.
      if (parsed.success && parsed.data.code !== Code.OK) status = parsed.data;
    } catch {
      // Not JSON (a proxy's HTML page, say): fall back to the HTTP status below.
    }
    if (init.httpStatus >= 300 && init.httpStatus < 400)
      status = {
        code: Code.UNKNOWN,
        message: `HTTP ${init.httpStatus}: a redirect${location ? ` to ${location.slice(0, 200)}` : ""}, which is not followed (it would carry the credentials elsewhere) and is not a success. A login page or a proxy is answering: check the base URL`,
        details: [],
      };
    status ??= {
      code: codeForHttpStatus(init.httpStatus),
      message: `HTTP ${init.httpStatus}${body ? `: ${body.slice(0, 200)}` : ""}`,
      details: [],
    };
    return new ApiError({ ...summary, status });
  }

  /**
   * True for a group delete refused because children remain (code 9 with a `RESOURCE_NOT_EMPTY`
   * precondition violation).
   *
   * @example
   * if (err.isResourceNotEmpty()) await waitForChildren();
   */
  isResourceNotEmpty(): boolean {
    return (
      this.code === Code.FAILED_PRECONDITION &&
      this.preconditionViolations.some((v) => v.type === "RESOURCE_NOT_EMPTY")
    );
  }

  /**
   * True when the resource does not exist (code 5).
   *
   * @example
   * if (err.isNotFound()) return undefined;
   */
  isNotFound(): boolean {
    return this.code === Code.NOT_FOUND;
  }
}

/**
 * The request never got an answer: connection refused or reset, DNS, timeout. `sent` tells whether
 * the request may have reached the server (a POST is retried only when it certainly did not).
 *
 * @example
 * if (e instanceof NetworkError && !e.sent) retry();
 */
export class NetworkError extends IrvError {
  override readonly name: string = "NetworkError";
  /** The absolute URL without its query (`https://irv.example/iam/v2beta1/groups`), when known. */
  readonly url: string | undefined;
  constructor(
    message: string,
    /** Whether the request may have been delivered before the failure. */
    readonly sent: boolean,
    /** The low-level error code (e.g. `ECONNRESET`), when there is one. */
    readonly errorCode: string | undefined,
    options?: { cause?: unknown; url?: string | undefined },
  ) {
    super(message, options);
    this.url = options?.url === undefined ? undefined : redactSecrets(options.url);
  }
}

/**
 * A response that does not match the contract (a known field with a wrong type). The message names
 * the JSON path of every mismatch.
 *
 * @example
 * // GET /iam/v2beta1/groups/…: response does not match the contract: createTime: expected string, received number
 */
export class InvalidResponseError extends IrvError {
  override readonly name: string = "InvalidResponseError";
  constructor(
    message: string,
    /** Each mismatch as `path: problem`. */
    readonly issues: readonly string[],
  ) {
    super(message);
  }
}

/**
 * A call argument the client refuses before sending anything (a malformed uid, say). `argument`
 * names it.
 *
 * @example
 * try { await client.groups.delete(uid); } catch (e) { if (e instanceof InvalidArgumentError) console.error(e.argument); }
 */
export class InvalidArgumentError extends IrvError {
  override readonly name: string = "InvalidArgumentError";
  constructor(
    /** The argument or property at fault, e.g. `parentUid`. */
    readonly argument: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Wrong or missing client configuration (no base URL, no credentials, an unreadable token file).
 *
 * @example
 * throw new ConfigurationError("irv:baseUrl (or IRV_BASE_URL) is required");
 */
export class ConfigurationError extends IrvError {
  override readonly name: string = "ConfigurationError";
}

function pick<T>(
  details: readonly Record<string, unknown>[],
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
): T | undefined {
  for (const d of details) {
    const r = schema.safeParse(d);
    if (r.success) return r.data;
  }
  return undefined;
}

function parseDuration(d: string | undefined): number | undefined {
  if (!d) return undefined;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(d);
  return m?.[1] ? Math.round(Number(m[1]) * 1000) : undefined;
}
