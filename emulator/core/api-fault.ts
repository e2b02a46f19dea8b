import type { FieldViolation, PreconditionViolation } from "pulumi-irv/sdk";
import { Code, codeName, ERROR_DOMAIN, TYPE_URL_PREFIX } from "pulumi-irv/sdk";

/**
 * The `{code, message, details}` body of an AIP-193 error, as the emulator writes it.
 *
 * @example
 * const body: StatusBody = fault.toBody(req.id);
 * reply.code(httpStatusForCode(body.code)).send(body);
 */
export interface StatusBody {
  code: number;
  message: string;
  details: Record<string, unknown>[];
}

// Every message starts with a fixed phrase per code, so a reader (and a test) can tell the class of
// failure from the text alone; the spec fixes two of them ("Invalid argument:", "Precondition failed:").
const PREFIX: Partial<Record<number, string>> = {
  [Code.INVALID_ARGUMENT]: "Invalid argument",
  [Code.NOT_FOUND]: "Not found",
  [Code.ALREADY_EXISTS]: "Already exists",
  [Code.PERMISSION_DENIED]: "Permission denied",
  [Code.RESOURCE_EXHAUSTED]: "Resource exhausted",
  [Code.FAILED_PRECONDITION]: "Precondition failed",
  [Code.UNIMPLEMENTED]: "Unimplemented",
  [Code.INTERNAL]: "Internal error",
  [Code.UNAVAILABLE]: "Unavailable",
  [Code.UNAUTHENTICATED]: "Unauthenticated",
};

/**
 * An error the emulator answers with: a canonical code, a message (prefixed per code) and the
 * details between ErrorInfo and RequestInfo. Thrown anywhere below the HTTP layer, which turns it
 * into an AIP-193 body with the grpc-gateway HTTP status.
 *
 * @example
 * throw new ApiFault(Code.NOT_FOUND, `group ${uid}`);
 */
export class ApiFault extends Error {
  override readonly name = "ApiFault";
  readonly code: number;
  readonly details: Record<string, unknown>[];
  /** Response headers to add (Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    code: number,
    text: string,
    details: Record<string, unknown>[] = [],
    headers: Record<string, string> = {},
  ) {
    super(`${PREFIX[code] ?? codeName(code)}: ${text}`);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /**
   * The AIP-193 body: ErrorInfo first, then the specific details, then RequestInfo.
   *
   * @example
   * reply.code(400).send(fault.toBody("req-1"));
   */
  toBody(requestId: string): StatusBody {
    return {
      code: this.code,
      message: this.message,
      details: [
        { "@type": `${TYPE_URL_PREFIX}ErrorInfo`, reason: codeName(this.code), domain: ERROR_DOMAIN },
        ...this.details,
        { "@type": `${TYPE_URL_PREFIX}RequestInfo`, requestId },
      ],
    };
  }
}

/**
 * Code 3 with a BadRequest detail. The message repeats the violations so that a reader of the
 * message alone knows what to fix.
 *
 * @example
 * throw invalidArgument([{ field: "page_size", description: "must not be negative" }]);
 */
export function invalidArgument(violations: FieldViolation[], summary?: string): ApiFault {
  const text = summary ?? violations.map((v) => `${v.field}: ${v.description}`).join("; ");
  return new ApiFault(Code.INVALID_ARGUMENT, text, [
    { "@type": `${TYPE_URL_PREFIX}BadRequest`, fieldViolations: violations },
  ]);
}

/**
 * Code 9 with a PreconditionFailure detail.
 *
 * @example
 * throw failedPrecondition("group x is not empty", [{ type: "RESOURCE_NOT_EMPTY", subject: child, description: "…" }]);
 */
export function failedPrecondition(text: string, violations: PreconditionViolation[]): ApiFault {
  return new ApiFault(Code.FAILED_PRECONDITION, text, [
    { "@type": `${TYPE_URL_PREFIX}PreconditionFailure`, violations },
  ]);
}

/**
 * Code 5 for a resource of a kind.
 *
 * @example
 * throw notFound("group", uid);
 */
export function notFound(singular: string, uid: string): ApiFault {
  return new ApiFault(Code.NOT_FOUND, `${singular} ${JSON.stringify(uid)} does not exist`);
}

/**
 * Code 7: the caller may not do this here. The text never says whether the target exists.
 *
 * @example
 * throw permissionDenied("create group in 1234…");
 */
export function permissionDenied(what: string): ApiFault {
  return new ApiFault(Code.PERMISSION_DENIED, `the caller may not ${what}`);
}

/**
 * Code 16: no usable credentials. The text says why, never what the token was.
 *
 * @example
 * throw unauthenticated("the token has expired");
 */
export function unauthenticated(why: string): ApiFault {
  return new ApiFault(Code.UNAUTHENTICATED, why);
}
