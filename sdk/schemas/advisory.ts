import { z } from "zod";
import { Timestamp, Uid } from "./common.js";

/**
 * Severity of an advisory (fields of advisories are not shown in the spec; see contract decisions).
 *
 * @example
 * Severity.parse("HIGH");
 */
export const Severity = z.enum(["LOW", "MEDIUM", "HIGH", "CRITICAL"]);
/**
 * Severity of an advisory.
 *
 * @example
 * const worst: Severity = "CRITICAL";
 */
export type Severity = z.infer<typeof Severity>;

/**
 * A vulnerability advisory (read-only). Its uid is a child of the group it is scoped to.
 *
 * @example
 * const a = Advisory.parse(body);
 */
export const Advisory = z.object({
  uid: Uid,
  name: z.string(),
  description: z.string().optional(),
  severity: Severity.or(z.string()).optional(),
  repoUid: z.string().optional(),
  createTime: Timestamp,
  updateTime: Timestamp.optional(),
});
/**
 * A vulnerability advisory.
 *
 * @example
 * const advisories: Advisory[] = await client.advisories.collect({ descendantsOf: orgUid });
 */
export type Advisory = z.infer<typeof Advisory>;
