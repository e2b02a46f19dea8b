import { randomInt } from "node:crypto";
import { ADVISORY_EVENT_KINDS, FALSE_POSITIVE_TYPES, REVIEW_STATES, Timestamp } from "pulumi-irv/sdk";
import { z } from "zod";
import { newChildUid } from "../core/index.js";
import type { KindHooks } from "./kind-context.js";
import { SeedText as Text } from "./seed-text.js";

// The CGA identifier's shape, as the published request documents it: "CGA-xvgw-cvr7-9g2q"
// (advisories.proto:359).
const ADVISORY_ID_ALPHABET = "23456789cfghjmpqrvwx";
const ADVISORY_ID_PATTERN = /^CGA(-[0-9a-z]{4}){3}$/;
// The fields of a scanner detection (`AdvisoryEvent.Detection.ScanV1`), in field order.
const SCAN_SEED_FIELDS = [
  "scanner",
  "subpackage",
  "componentId",
  "component",
  "componentVersion",
  "componentType",
  "componentLocation",
  "artifactVersion",
  "scannerVersion",
  "grypeDbBuilt",
  "grypeDbChecksum",
] as const;

/**
 * A fresh CGA advisory identifier, `CGA-` and three groups of four characters.
 *
 * @example
 * newAdvisoryId(); // "CGA-xvgw-cvr7-9g2q"
 */
export function newAdvisoryId(): string {
  const group = () => Array.from({ length: 4 }, () => ADVISORY_ID_ALPHABET[randomInt(20)]).join("");
  return `CGA-${group()}-${group()}-${group()}`;
}

const NOTE_KINDS = [
  "analysisNotPlanned",
  "fixNotPlanned",
  "pendingUpstreamFix",
  "truePositiveDetermination",
] as const;
const Note = z.object({ note: Text.optional() });
const versions = z.array(Text).max(100);

/**
 * One seeded advisory event: the published `AdvisoryEvent`'s settable fields (author, reviewer,
 * review state, issue, findings as base64) and **exactly one** of its kinds
 * (`ADVISORY_EVENT_KINDS`), each with its fields and note; a detection sets at most one of
 * `nvdapi`, `manual`, `scanv1` (none: manual). `createTime` may be seeded (events from the past);
 * the uid is the emulator's. Enum values by name. Unknown keys are dropped.
 *
 * @example
 * AdvisoryEventSeed.parse({ fixed: { fixedVersion: "2.15.0", note: "upstream release" } });
 */
export const AdvisoryEventSeed = z
  .object({
    createTime: Timestamp.optional(),
    findings: z.base64({ error: "must be base64 (protojson bytes)" }).max(65_536).optional(),
    author: Text.optional(),
    reviewer: Text.optional(),
    reviewState: z.enum(REVIEW_STATES, { error: `must be one of ${REVIEW_STATES.join(", ")}` }).optional(),
    issue: Text.optional(),
    detection: z
      .object({
        nvdapi: z.object({ cpeSearched: Text.optional(), cpeFound: Text.optional() }).optional(),
        manual: z.object({}).optional(),
        scanv1: z.object(Object.fromEntries(SCAN_SEED_FIELDS.map((f) => [f, Text.optional()]))).optional(),
      })
      .refine((d) => [d.nvdapi, d.manual, d.scanv1].filter((x) => x !== undefined).length <= 1, {
        message: "sets at most one of nvdapi, manual, scanv1",
      })
      .optional(),
    fixed: z
      .object({
        fixedVersion: Text.optional(),
        note: Text.optional(),
        scannerVersion: Text.optional(),
        grypeDbBuilt: Text.optional(),
        grypeDbChecksum: Text.optional(),
      })
      .optional(),
    falsePositiveDetermination: z
      .object({
        type: z
          .enum(FALSE_POSITIVE_TYPES, { error: `must be one of ${FALSE_POSITIVE_TYPES.join(", ")}` })
          .optional(),
        note: Text.optional(),
      })
      .optional(),
    analysisNotPlanned: Note.optional(),
    fixNotPlanned: Note.optional(),
    pendingUpstreamFix: Note.optional(),
    truePositiveDetermination: Note.optional(),
    patched: z.object({ patchedVersions: versions.optional(), note: Text.optional() }).optional(),
  })
  .superRefine((e, ctx) => {
    const set = ADVISORY_EVENT_KINDS.filter((k) => e[k] !== undefined);
    if (set.length !== 1)
      ctx.addIssue({
        code: "custom",
        path: set.length > 1 ? [set[1] as string] : [],
        message: `must set exactly one of ${ADVISORY_EVENT_KINDS.join(", ")}${set.length > 1 ? ` (it sets ${set.join(" and ")})` : ""}`,
      });
  });

/**
 * The fields a seeded advisory may set (control API and fixtures): the published `Advisory`'s
 * (chainguard-dev/sdk, proto/chainguard/platform/vulnerabilities/v2beta1/advisories.proto:63-115),
 * every one optional; `advisoryId` is generated when absent. A severity's `type` is any
 * `TYPE_…` name, so a scoring method newer than the client can be seeded too. `events` are typed
 * ({@link AdvisoryEventSeed}). Unknown keys (`name`, `severity`…) are dropped.
 *
 * @example
 * AdvisorySeed.parse({
 *   aliases: ["CVE-2021-44228", "GHSA-jfh8-c2jp-5v3q"],
 *   artifactName: "log4j",
 *   severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H" }],
 * });
 */
export const AdvisorySeed = z.object({
  advisoryId: z
    .string()
    .regex(ADVISORY_ID_PATTERN, { message: "must look like CGA-xvgw-cvr7-9g2q" })
    .optional(),
  deleteTime: Timestamp.optional(),
  author: Text.optional(),
  artifactName: Text.optional(),
  artifactType: Text.optional(),
  artifactArchitecture: Text.optional(),
  componentName: Text.optional(),
  componentLocation: Text.optional(),
  componentType: Text.optional(),
  aliases: z.array(Text).max(100).optional(),
  events: z.array(AdvisoryEventSeed).max(100).optional(),
  legacyAdvisoryId: Text.optional(),
  severities: z
    .array(
      z.object({
        type: z
          .string()
          .regex(/^TYPE_[A-Z0-9_]+$/, { message: "must be a Severity.Type name, e.g. TYPE_CVSS_V3" }),
        score: Text.optional(),
      }),
    )
    .max(10)
    .optional(),
});

type Seed = z.output<typeof AdvisorySeed>;
type EventSeed = z.output<typeof AdvisoryEventSeed>;

// Every field of an event kind, as the gateway writes the message (EmitUnpopulated): "" and [].
const FIXED_FIELDS = ["fixedVersion", "note", "scannerVersion", "grypeDbBuilt", "grypeDbChecksum"];
const filled = (fields: readonly string[], given: Record<string, unknown> = {}) =>
  Object.fromEntries(fields.map((f) => [f, given[f] ?? ""]));

// The one kind an event sets, written whole.
function eventKind(e: EventSeed): Record<string, unknown> {
  if (e.detection !== undefined) {
    const d = e.detection;
    return {
      detection:
        d.nvdapi !== undefined
          ? { nvdapi: filled(["cpeSearched", "cpeFound"], d.nvdapi) }
          : d.scanv1 !== undefined
            ? { scanv1: filled(SCAN_SEED_FIELDS, d.scanv1) }
            : { manual: {} },
    };
  }
  if (e.fixed !== undefined) return { fixed: filled(FIXED_FIELDS, e.fixed) };
  if (e.falsePositiveDetermination !== undefined) {
    const f = e.falsePositiveDetermination;
    return { falsePositiveDetermination: { type: f.type ?? FALSE_POSITIVE_TYPES[0], note: f.note ?? "" } };
  }
  if (e.patched !== undefined)
    return { patched: { patchedVersions: e.patched.patchedVersions ?? [], note: e.patched.note ?? "" } };
  for (const k of NOTE_KINDS) {
    const v = e[k];
    if (v !== undefined) return { [k]: { note: v.note ?? "" } };
  }
  return {};
}

/**
 * A seeded event in the form the gateway writes it: the service's uid (a child of the advisory's)
 * and createTime (the seed's, or now), unset fields at their defaults, `issue` (an `optional`
 * field) only when set, then the one kind the event is.
 *
 * @example
 * storedEvent(advisoryUid, { fixed: { fixedVersion: "2.15.0" } }, now).fixed; // { fixedVersion: "2.15.0", note: "", … }
 */
export function storedEvent(advisoryUid: string, e: EventSeed, now: string): Record<string, unknown> {
  return {
    uid: newChildUid(advisoryUid),
    createTime: e.createTime ?? now,
    findings: e.findings ?? "",
    author: e.author ?? "",
    reviewer: e.reviewer ?? "",
    reviewState: e.reviewState ?? REVIEW_STATES[0],
    ...(e.issue === undefined ? {} : { issue: e.issue }),
    ...eventKind(e),
  };
}

/**
 * Advisories as the gateway writes them: the published message's fields in its order, unset ones at
 * their proto3 defaults (`""`, `[]`), the two `optional` fields (`deleteTime`, `legacyAdvisoryId`)
 * left out when unset. The advisory id is generated unless seeded, and is what the emulator keeps
 * in a row's name column (sibling uniqueness, `order_by=name`): advisories have no name.
 *
 * @example
 * const fields = ADVISORY_HOOKS.beforeCreate?.(ctx, { caller, parentUid: groupUid, fields: {}, now: Date.now() }); // advisoryId set
 * ADVISORY_HOOKS.stored?.(advisoryUid, groupUid, fields ?? {}, now)?.severities; // []
 */
export const ADVISORY_HOOKS: Pick<KindHooks, "beforeCreate" | "stored"> = {
  beforeCreate: (_ctx, w) => ({ ...w.fields, advisoryId: w.fields.advisoryId ?? newAdvisoryId() }),
  stored: (uid, _parentUid, fields, now) => {
    const f = fields as Seed;
    return {
      uid,
      advisoryId: f.advisoryId,
      createTime: now,
      updateTime: now,
      ...(f.deleteTime === undefined ? {} : { deleteTime: f.deleteTime }),
      author: f.author ?? "",
      artifactName: f.artifactName ?? "",
      artifactType: f.artifactType ?? "",
      artifactArchitecture: f.artifactArchitecture ?? "",
      componentName: f.componentName ?? "",
      componentLocation: f.componentLocation ?? "",
      componentType: f.componentType ?? "",
      aliases: f.aliases ?? [],
      events: (f.events ?? []).map((e) => storedEvent(uid, e, now)),
      ...(f.legacyAdvisoryId === undefined ? {} : { legacyAdvisoryId: f.legacyAdvisoryId }),
      severities: (f.severities ?? []).map((s) => ({ type: s.type, score: s.score ?? "" })),
    };
  },
};
