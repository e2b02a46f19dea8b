import { z } from "zod";
import { OptionalString, OptionalTimestamp, ProtoString, protoEnum, repeated, Uid } from "./common.js";

// The published v2beta1 `Advisory` (chainguard-dev/sdk,
// proto/chainguard/platform/vulnerabilities/v2beta1/advisories.proto:63-135); the spec shows no field
// of advisories, so the published message decides (docs/contract-decisions.md, "Read-only kinds").

/**
 * The scoring methods of a {@link Severity}, in enum order (`Severity.Type`, advisories.proto:120-129).
 *
 * @example
 * SEVERITY_TYPES.includes("TYPE_CVSS_V3"); // true
 */
export const SEVERITY_TYPES = ["TYPE_UNSPECIFIED", "TYPE_CVSS_V2", "TYPE_CVSS_V3", "TYPE_CVSS_V4"] as const;

/**
 * One severity scoring of the vulnerability an advisory is about: the method (`TYPE_CVSS_V3`…; a
 * method this client does not know yet is kept as sent) and the score, a CVSS vector or a number
 * depending on the method.
 *
 * @example
 * Severity.parse({ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" });
 */
export const Severity = z.object({
  type: protoEnum(SEVERITY_TYPES),
  score: ProtoString,
});
/**
 * One severity scoring of an advisory.
 *
 * @example
 * const v3 = advisory.severities.find((s: Severity) => s.type === "TYPE_CVSS_V3")?.score;
 */
export type Severity = z.infer<typeof Severity>;

/**
 * A vulnerability advisory (read-only): how one vulnerability relates to one artifact. `advisoryId`
 * is its CGA identifier; the CVE, GHSA… identifiers it applies to are its `aliases`; `severities`
 * carries the CVSS scorings. It has no `name`. `events` (detections, fixes…) are read loosely: each
 * event as the service sends it.
 *
 * @example
 * const a = Advisory.parse(body);
 * a.aliases.includes("CVE-2021-44228");
 */
export const Advisory = z.object({
  uid: Uid,
  advisoryId: ProtoString,
  createTime: OptionalTimestamp,
  updateTime: OptionalTimestamp,
  /** Set only on a deleted advisory (an `optional` field: absent when unset). */
  deleteTime: OptionalTimestamp,
  author: ProtoString,
  artifactName: ProtoString,
  artifactType: ProtoString,
  artifactArchitecture: ProtoString,
  componentName: ProtoString,
  componentLocation: ProtoString,
  componentType: ProtoString,
  aliases: repeated(z.string()),
  // Lifecycle events have a deep oneof of their own (advisories.proto:137-343); kept as sent.
  events: repeated(z.record(z.string(), z.unknown())),
  /** The advisory id of the GitHub advisory repositories it was migrated from, if any. */
  legacyAdvisoryId: OptionalString,
  severities: repeated(Severity),
});
/**
 * A vulnerability advisory.
 *
 * @example
 * const advisories: Advisory[] = await client.advisories.collect({ descendantsOf: orgUid });
 */
export type Advisory = z.infer<typeof Advisory>;
