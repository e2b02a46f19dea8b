/**
 * The canonical RPC status codes (google.rpc.Code) the API uses in error bodies.
 *
 * @example
 * if (err.code === Code.NOT_FOUND) return undefined;
 */
export const Code = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
/**
 * A canonical code name.
 *
 * @example
 * const name: CodeName = codeName(5); // "NOT_FOUND"
 */
export type CodeName = keyof typeof Code;
/**
 * A canonical code number.
 *
 * @example
 * const code: CodeNumber = codeForHttpStatus(503); // 14 (Code.UNAVAILABLE)
 */
export type CodeNumber = (typeof Code)[CodeName];

const NAMES = new Map<number, CodeName>(Object.entries(Code).map(([k, v]) => [v, k as CodeName]));

/**
 * The name of a code number (`UNKNOWN` for numbers outside the canonical set).
 *
 * @example
 * codeName(9); // "FAILED_PRECONDITION"
 */
export function codeName(code: number): CodeName {
  return NAMES.get(code) ?? "UNKNOWN";
}

const HTTP: Record<CodeNumber, number> = {
  0: 200,
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

/**
 * The HTTP status grpc-gateway uses for a code (the mapping the emulator serves).
 *
 * @example
 * httpStatusForCode(Code.FAILED_PRECONDITION); // 400
 */
export function httpStatusForCode(code: number): number {
  return HTTP[code as CodeNumber] ?? 500;
}

/**
 * The code implied by an HTTP status, for error responses without a parseable body (a proxy's 502,
 * say). The body's own `code` always wins when present.
 *
 * @example
 * codeForHttpStatus(503); // Code.UNAVAILABLE
 */
export function codeForHttpStatus(status: number): CodeNumber {
  switch (status) {
    case 400:
      return Code.INVALID_ARGUMENT;
    case 401:
      return Code.UNAUTHENTICATED;
    case 403:
      return Code.PERMISSION_DENIED;
    case 404:
      return Code.NOT_FOUND;
    case 409:
      return Code.ALREADY_EXISTS;
    case 429:
      return Code.RESOURCE_EXHAUSTED;
    case 499:
      return Code.CANCELLED;
    case 501:
      return Code.UNIMPLEMENTED;
    case 502:
    case 503:
      return Code.UNAVAILABLE;
    case 504:
      return Code.DEADLINE_EXCEEDED;
    default:
      return status >= 500 ? Code.INTERNAL : Code.UNKNOWN;
  }
}

/**
 * The `ErrorInfo.domain` of the IAM API (the spec's `{error_domain}`; our choice is recorded in
 * docs/contract-decisions.md).
 *
 * @example
 * ERROR_DOMAIN; // "iam.irv.dev"
 */
export const ERROR_DOMAIN = "iam.irv.dev";
