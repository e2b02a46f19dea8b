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

// An unset message field is `null` (EmitUnpopulated) or absent (an unset oneof member): both absent.
const member = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((v) => v ?? undefined)
    .optional();
const note = { note: ProtoString };

/**
 * The review states of an advisory event, in enum order (`ReviewState`, advisories.proto).
 *
 * @example
 * REVIEW_STATES.includes("REVIEW_STATE_APPROVED"); // true
 */
export const REVIEW_STATES = [
  "REVIEW_STATE_UNSPECIFIED",
  "REVIEW_STATE_PENDING",
  "REVIEW_STATE_APPROVED",
  "REVIEW_STATE_REQUEST_CHANGES",
  "REVIEW_STATE_REJECTED",
] as const;

/**
 * Why a vulnerability does not affect the artifact, in enum order
 * (`AdvisoryEvent.FalsePositiveDetermination.Type`, advisories.proto).
 *
 * @example
 * FALSE_POSITIVE_TYPES.includes("TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH"); // true
 */
export const FALSE_POSITIVE_TYPES = [
  "TYPE_UNSPECIFIED",
  "TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED",
  "TYPE_COMPONENT_VULNERABILITY_MISMATCH",
  "TYPE_VULNERABLE_CODE_VERSION_NOT_USED",
  "TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE",
  "TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH",
  "TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY",
  "TYPE_INLINE_MITIGATIONS_EXIST",
] as const;

/**
 * The kinds of advisory event: the members of the published `AdvisoryEvent.type` oneof, by their
 * JSON names, in field order. An event sets exactly one.
 *
 * @example
 * const kind = ADVISORY_EVENT_KINDS.find((k) => event[k] !== undefined); // "fixed"
 */
export const ADVISORY_EVENT_KINDS = [
  "detection",
  "fixed",
  "falsePositiveDetermination",
  "analysisNotPlanned",
  "fixNotPlanned",
  "pendingUpstreamFix",
  "truePositiveDetermination",
  "patched",
] as const;

/**
 * How a vulnerability was detected: one of `nvdapi` (the CPE searched and found), `manual`, or
 * `scanv1` (the scanner's match).
 *
 * @example
 * Detection.parse({ scanv1: { scanner: "grype", componentVersion: "2.14.1" } }).scanv1?.scanner; // "grype"
 */
export const Detection = z.object({
  nvdapi: member(z.object({ cpeSearched: ProtoString, cpeFound: ProtoString })),
  manual: member(z.object({})),
  scanv1: member(
    z.object({
      scanner: ProtoString,
      subpackage: ProtoString,
      componentId: ProtoString,
      component: ProtoString,
      componentVersion: ProtoString,
      componentType: ProtoString,
      componentLocation: ProtoString,
      artifactVersion: ProtoString,
      scannerVersion: ProtoString,
      grypeDbBuilt: ProtoString,
      grypeDbChecksum: ProtoString,
    }),
  ),
});

/**
 * One event in the life of an advisory: who wrote it, its review, and exactly one of the published
 * kinds (`detection`, `fixed` with its `fixedVersion`, `falsePositiveDetermination` with its type,
 * `analysisNotPlanned`, `fixNotPlanned`, `pendingUpstreamFix`, `truePositiveDetermination`,
 * `patched` with its `patchedVersions`), each with its `note`. `findings` is the scanner's JSON
 * as protojson writes bytes (base64).
 *
 * @example
 * const fixedIn = advisory.events.find((e: AdvisoryEvent) => e.fixed)?.fixed?.fixedVersion; // "2.15.0"
 */
export const AdvisoryEvent = z.object({
  uid: ProtoString,
  createTime: OptionalTimestamp,
  findings: OptionalString,
  author: ProtoString,
  reviewer: OptionalString,
  reviewState: protoEnum(REVIEW_STATES),
  /** The original CVE dashboard issue (an `optional` field: absent when unset). */
  issue: OptionalString,
  detection: member(Detection),
  fixed: member(
    z.object({
      fixedVersion: ProtoString,
      ...note,
      scannerVersion: ProtoString,
      grypeDbBuilt: ProtoString,
      grypeDbChecksum: ProtoString,
    }),
  ),
  falsePositiveDetermination: member(z.object({ type: protoEnum(FALSE_POSITIVE_TYPES), ...note })),
  analysisNotPlanned: member(z.object(note)),
  fixNotPlanned: member(z.object(note)),
  pendingUpstreamFix: member(z.object(note)),
  truePositiveDetermination: member(z.object(note)),
  patched: member(z.object({ patchedVersions: repeated(z.string()), ...note })),
});
/**
 * One advisory event.
 *
 * @example
 * const patched = advisory.events.filter((e: AdvisoryEvent) => e.patched).flatMap((e) => e.patched?.patchedVersions ?? []);
 */
export type AdvisoryEvent = z.infer<typeof AdvisoryEvent>;

/**
 * A vulnerability advisory (read-only): how one vulnerability relates to one artifact. `advisoryId`
 * is its CGA identifier; the CVE, GHSA… identifiers it applies to are its `aliases`; `severities`
 * carries the CVSS scorings. It has no `name`. `events` (detections, fixes…) are typed: each one
 * of the published kinds ({@link AdvisoryEvent}).
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
  /** Its lifecycle (detected, fixed…), oldest first: each event one of the published kinds. */
  events: repeated(AdvisoryEvent),
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
