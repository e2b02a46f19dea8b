import { randomInt } from "node:crypto";
import { Timestamp } from "pulumi-irv/sdk";
import { z } from "zod";
import { freeFormRefinement } from "./field-limits.js";
import type { KindHooks } from "./kind-context.js";
import { SeedText as Text } from "./seed-text.js";

// The CGA identifier's shape, as the published request documents it: "CGA-xvgw-cvr7-9g2q"
// (advisories.proto:359).
const ADVISORY_ID_ALPHABET = "23456789cfghjmpqrvwx";
const ADVISORY_ID_PATTERN = /^CGA(-[0-9a-z]{4}){3}$/;

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

/**
 * The fields a seeded advisory may set (control API and fixtures): the published `Advisory`'s
 * (chainguard-dev/sdk, proto/chainguard/platform/vulnerabilities/v2beta1/advisories.proto:63-115),
 * every one optional; `advisoryId` is generated when absent. A severity's `type` is any
 * `TYPE_…` name, so a scoring method newer than the client can be seeded too. `events` are free-form
 * objects (held to the free-form limits). Unknown keys (`name`, `severity`…) are dropped.
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
  events: z.array(z.record(z.string(), z.unknown())).superRefine(freeFormRefinement()).optional(),
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

/**
 * Advisories as the gateway writes them: the published message's fields in its order, unset ones at
 * their proto3 defaults (`""`, `[]`), the two `optional` fields (`deleteTime`, `legacyAdvisoryId`)
 * left out when unset. The advisory id is generated unless seeded, and is what the emulator keeps
 * in a row's name column (sibling uniqueness, `order_by=name`): advisories have no name.
 *
 * @example
 * const fields = ADVISORY_HOOKS.beforeCreate?.(ctx, { caller, parentUid: groupUid, fields: {} }); // advisoryId set
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
      events: f.events ?? [],
      ...(f.legacyAdvisoryId === undefined ? {} : { legacyAdvisoryId: f.legacyAdvisoryId }),
      severities: (f.severities ?? []).map((s) => ({ type: s.type, score: s.score ?? "" })),
    };
  },
};
