import { isTimeout } from "../http/http-call.js";
import { ApiError, NetworkError } from "./api-error.js";
import { Code } from "./codes.js";

/**
 * What a person should look at after a failed request:
 * `address` — the URL (nothing listens there, or the host does not exist);
 * `tls` — the URL's scheme or the server's certificate;
 * `timeout` — the service's health or the configured timeout;
 * `credentials` — the token was refused (401);
 * `permission` — the caller is known but may not do this (403).
 *
 * @example
 * const hint: FailureHint = classifyFailure(error)?.hint ?? "address";
 */
export type FailureHint = "address" | "tls" | "timeout" | "credentials" | "permission";

/**
 * A failed request in words: where it went, why it failed and what to check.
 *
 * @example
 * const f: FailureCause = { url: "http://127.0.0.1:9/iam/v2beta1/groups", cause: "connection refused", hint: "address" };
 */
export interface FailureCause {
  /** The absolute URL of the request, without its query (undefined when the error did not carry it). */
  url: string | undefined;
  /** The cause, e.g. `connection refused`, `unknown host`, `TLS failure (ERR_SSL_WRONG_VERSION_NUMBER)`. */
  cause: string;
  hint: FailureHint;
}

// Low-level codes (Node's system errors, undici's, OpenSSL's) by what they mean for the user.
const ADDRESS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "unknown host (the DNS lookup found no such name)",
  EAI_AGAIN: "unknown host (the DNS lookup failed)",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ECONNRESET: "connection reset by the server",
  EPIPE: "connection closed by the server",
  UND_ERR_SOCKET: "connection closed by the server",
};
// OpenSSL (`ERR_SSL_…`), Node's TLS layer (`ERR_TLS_…`) and certificate verification codes.
const TLS =
  /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$)/;

/**
 * Classifies a failed request into its cause and what to check: transport failures (refused,
 * unknown host, TLS, timeout, reset) and the API's 401 and 403 (with the service's message). Other
 * errors (an API's own refusal of a request, a bug) give `undefined`: their message is the story.
 *
 * @example
 * const f = classifyFailure(err);
 * if (f) console.error(`${f.url}: ${f.cause}`); // http://127.0.0.1:9/registry/v2beta1/repos: connection refused
 */
export function classifyFailure(error: unknown): FailureCause | undefined {
  if (error instanceof NetworkError) {
    const code = error.errorCode;
    const url = error.url;
    if (code && ADDRESS[code]) return { url, cause: ADDRESS[code], hint: "address" };
    if (isTimeout(error) || code === "ETIMEDOUT")
      return { url, cause: "timeout: no answer in time", hint: "timeout" };
    if (code && TLS.test(code)) return { url, cause: `TLS failure (${code})`, hint: "tls" };
    return { url, cause: code ?? "network failure", hint: "address" };
  }
  if (error instanceof ApiError) {
    const said = `${error.httpStatus} ${error.codeName}: ${error.serverMessage}`;
    if (error.code === Code.UNAUTHENTICATED) return { url: error.url, cause: said, hint: "credentials" };
    if (error.code === Code.PERMISSION_DENIED) return { url: error.url, cause: said, hint: "permission" };
  }
  return undefined;
}
