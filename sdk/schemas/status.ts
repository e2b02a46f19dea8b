import { z } from "zod";

/**
 * Prefix of every standard detail type URL.
 *
 * @example
 * const isBadRequest = detail["@type"] === `${TYPE_URL_PREFIX}BadRequest`;
 */
export const TYPE_URL_PREFIX = "type.googleapis.com/google.rpc.";

/**
 * `google.rpc.ErrorInfo`: the machine-readable reason and its domain.
 *
 * @example
 * ErrorInfo.parse({ "@type": `${TYPE_URL_PREFIX}ErrorInfo`, reason: "INVALID_ARGUMENT", domain: "iam.irv.dev" });
 */
export const ErrorInfo = z.object({
  "@type": z.string().endsWith("ErrorInfo"),
  reason: z.string(),
  domain: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});

/**
 * `google.rpc.BadRequest`: which request fields broke which rule.
 *
 * @example
 * BadRequest.parse({ "@type": `${TYPE_URL_PREFIX}BadRequest`, fieldViolations: [{ field: "name", description: "…" }] });
 */
export const BadRequest = z.object({
  "@type": z.string().endsWith("BadRequest"),
  fieldViolations: z.array(z.object({ field: z.string(), description: z.string() })),
});

/**
 * `google.rpc.PreconditionFailure`: which preconditions failed (e.g. `RESOURCE_NOT_EMPTY`).
 *
 * @example
 * PreconditionFailure.parse({ "@type": `${TYPE_URL_PREFIX}PreconditionFailure`, violations: [{ type: "RESOURCE_NOT_EMPTY", subject: uid, description: "…" }] });
 */
export const PreconditionFailure = z.object({
  "@type": z.string().endsWith("PreconditionFailure"),
  violations: z.array(
    z.object({ type: z.string(), subject: z.string().optional(), description: z.string() }),
  ),
});

/**
 * `google.rpc.RequestInfo`: the server's id for the request, quoted in support requests.
 *
 * @example
 * RequestInfo.parse({ "@type": `${TYPE_URL_PREFIX}RequestInfo`, requestId: "5f2c…" });
 */
export const RequestInfo = z.object({
  "@type": z.string().endsWith("RequestInfo"),
  requestId: z.string(),
  servingData: z.string().optional(),
});

/**
 * `google.rpc.RetryInfo`: how long to wait before retrying.
 *
 * @example
 * RetryInfo.parse({ "@type": `${TYPE_URL_PREFIX}RetryInfo`, retryDelay: "1.5s" });
 */
export const RetryInfo = z.object({
  "@type": z.string().endsWith("RetryInfo"),
  retryDelay: z.string(),
});

/**
 * The AIP-193 error body: `{code, message, details[]}`. Details of unknown types are kept as they
 * are rather than failing the parse.
 *
 * @example
 * const status = Status.parse(await res.json());
 */
export const Status = z.object({
  code: z.number().int(),
  message: z.string().default(""),
  details: z.array(z.looseObject({ "@type": z.string() })).default([]),
});
/**
 * The AIP-193 error body.
 *
 * @example
 * const body: Status = { code: Code.NOT_FOUND, message: "group not found", details: [] };
 */
export type Status = z.infer<typeof Status>;
/**
 * One field violation of a BadRequest detail.
 *
 * @example
 * const lines = err.fieldViolations.map((v: FieldViolation) => `${v.field}: ${v.description}`);
 */
export type FieldViolation = z.infer<typeof BadRequest>["fieldViolations"][number];
/**
 * One violation of a PreconditionFailure detail.
 *
 * @example
 * const notEmpty = (v: PreconditionViolation) => v.type === "RESOURCE_NOT_EMPTY";
 * const blockers = err.preconditionViolations.filter(notEmpty).map((v) => v.subject);
 */
export type PreconditionViolation = z.infer<typeof PreconditionFailure>["violations"][number];
