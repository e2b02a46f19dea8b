// The sdk's zod wire schemas and the published messages of proto/ must not drift: each kind's read
// schema is compared with its message field by field, in the JSON (lowerCamel) names both write.
// Every difference is either listed below with its reason or a failure; a listed difference that is
// gone (a gap filled) fails too, so the lists only shrink.
import { describe, expect, it } from "vitest";
import { WIRE_REGISTRY } from "../../../emulator/grpc/index.js";
import { GroupInviteCreateSchema, OidcInput } from "../../../sdk/index.js";
import { fieldDrift, KIND_MESSAGES } from "./zod-drift.js";

/**
 * Published fields the zod read schemas do not have yet (issue 38 closed the OIDC, binding and
 * advisory-event gaps; these remain). Remove an entry when its field is added.
 */
const KNOWN_GAPS: Record<string, string> = {
  "groups.kind": "OrgKind: set only for verified root organizations (staff); the emulator has none",
  "groups.status": "OrgStatus: provisioning state of a root organization, output only",
  "identities.company": "output only, set from a human's login profile; the emulator has no human logins",
  "identities.email": "output only, as company",
  "identities.emailUnverified": "output only, as company",
  "identityProviders.scim": "output only; managed through the SCIM-token rpcs the contract does not name",
  "roleBindings.identity.email": "output only, a human identity's email (none in the emulator)",
};

/** Published fields the read schemas leave out on purpose. */
const WRITE_ONLY: Record<string, string> = {
  "identityProviders.oidc.clientSecret":
    "write-only: sent in OidcInput on create and update, never read back",
  "groupInvites.ttl":
    "input only (published: consumed to compute expiration_time, not returned): in GroupInviteCreate",
};

/**
 * Fields the zod read schemas accept that the published messages lack: read leniently (spec §2 says
 * every resource carries both timestamps), never sent.
 */
const ZOD_ONLY: Record<string, string> = {
  "groupInvites.updateTime":
    "spec §2 'every resource carries createTime and updateTime'; absent from GroupInvite",
  "tags.createTime": "spec §2 as above; the published Tag has only updateTime",
};

describe("zod wire schemas against proto/", () => {
  const drift = fieldDrift();
  const found = (side: string) => drift.filter((d) => d.side === side).map((d) => d.path);

  it("every published field is in zod, or a listed gap or write-only field", () => {
    const missing = found("missing-in-zod").filter((p) => !(p in KNOWN_GAPS) && !(p in WRITE_ONLY));
    expect(missing, "published fields missing from the zod schemas").toEqual([]);
  });

  it("every zod field is published, or listed as read leniently", () => {
    const extra = found("missing-in-proto").filter((p) => !(p in ZOD_ONLY));
    expect(extra, "zod fields the published messages lack").toEqual([]);
  });

  it("no published message is held as an untyped value in zod", () => {
    expect(found("untyped-in-zod")).toEqual([]);
  });

  it("every listed entry is still true (a filled gap must leave KNOWN_GAPS)", () => {
    const stillMissing = new Set(found("missing-in-zod"));
    const stillExtra = new Set(found("missing-in-proto"));
    expect(
      Object.keys(KNOWN_GAPS).filter((p) => !stillMissing.has(p)),
      "KNOWN_GAPS entries that are no longer gaps: remove them",
    ).toEqual([]);
    expect(Object.keys(WRITE_ONLY).filter((p) => !stillMissing.has(p))).toEqual([]);
    expect(Object.keys(ZOD_ONLY).filter((p) => !stillExtra.has(p))).toEqual([]);
  });

  it("the write-only fields are in the input schemas", () => {
    expect(Object.keys(OidcInput.shape)).toContain("clientSecret");
    expect(Object.keys(GroupInviteCreateSchema.shape)).toContain("ttl");
  });

  it("the issue 38 fields are compared and present: OIDC groupsClaim/pkceEnabled/correlationRule, binding identityUid, typed advisory events", () => {
    const paths = new Set(drift.map((d) => d.path));
    for (const p of [
      "identityProviders.oidc.groupsClaim",
      "identityProviders.oidc.pkceEnabled",
      "identityProviders.oidc.correlationRule",
      "roleBindings.identityUid",
      "advisories.events",
      "advisories.events.fixed",
      "advisories.events.fixed.fixedVersion",
    ]) {
      expect(paths.has(p), p).toBe(false);
    }
  });

  it("the issue 45 kinds are compared in full: repos with sync_config and customOverlay, tags, overlays, overlay bindings, subscriptions, external group role mappings", () => {
    for (const kind of [
      "repos",
      "tags",
      "overlays",
      "overlayBindings",
      "subscriptions",
      "externalGroupRoleMappings",
    ] as const) {
      expect(WIRE_REGISTRY.getMessage(KIND_MESSAGES[kind]), kind).toBeDefined();
      expect(
        drift
          .map((d) => d.path)
          .filter((p) => p.startsWith(`${kind}.`) && !(p in ZOD_ONLY) && !(p in KNOWN_GAPS)),
        `${kind}: unlisted differences from its published message`,
      ).toEqual([]);
    }
  });
});
