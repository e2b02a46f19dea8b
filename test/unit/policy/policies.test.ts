import { describe, expect, it } from "vitest";
import { OWNER_CAPABILITIES } from "../../../policy/owner-capabilities.js";
import {
  descriptionRequired,
  groupNamePattern,
  identityIssuerHttps,
  NAMING_DEFAULTS,
  namingConvention,
  noBroadOwnerBinding,
} from "../../../policy/policies/index.js";
import { API_GROUP_NAME, TYPE } from "../../../policy/type-tokens.js";
import { CAPABILITIES, GROUP_NAME_PATTERN } from "../../../sdk/index.js";
import type { StackResource } from "./run-policy.js";
import { stackViolations, violations, withUnknown } from "./run-policy.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";

describe("group-name-pattern", () => {
  it("is mandatory and refuses a group name with capitals, quoting the name and the pattern", async () => {
    expect(groupNamePattern.enforcementLevel).toBe("mandatory");
    expect(await violations(groupNamePattern, TYPE.Group, { name: "Platform Team", parentUid: ORG })).toEqual(
      [
        "Group name \"Platform Team\" does not match ^[a-z0-9 ._-]{1,}$: use lower-case letters, digits, space, '.', '_' or '-'.",
      ],
    );
  });

  it("accepts a valid name and ignores other resource types", async () => {
    expect(await violations(groupNamePattern, TYPE.Group, { name: "platform" })).toEqual([]);
    expect(await violations(groupNamePattern, TYPE.Identity, { name: "Platform" })).toEqual([]);
  });

  it("uses the same pattern as the API client", () => {
    expect(API_GROUP_NAME.source).toBe(GROUP_NAME_PATTERN.source);
  });
});

describe("naming-convention", () => {
  it("is advisory by default and flags names outside the default kebab-case", async () => {
    expect(namingConvention.enforcementLevel).toBe("advisory");
    expect(await violations(namingConvention, TYPE.Group, { name: "team_a" })).toEqual([
      `The group name "team_a" does not follow the naming convention ${NAMING_DEFAULTS.groupPattern}.`,
    ]);
  });

  it("applies a configured pattern per kind and a maximum length", async () => {
    const config = { groupPattern: "^team-[a-z0-9-]+$", identityPattern: "^ci-", maxLength: 10 };
    expect(await violations(namingConvention, TYPE.Group, { name: "platform" }, config)).toEqual([
      'The group name "platform" does not follow the naming convention ^team-[a-z0-9-]+$.',
    ]);
    expect(await violations(namingConvention, TYPE.Identity, { name: "ci-very-long-name" }, config)).toEqual([
      'The identity name "ci-very-long-name" is 17 characters long; the maximum is 10.',
    ]);
    expect(await violations(namingConvention, TYPE.Group, { name: "team-a" }, config)).toEqual([]);
  });

  it("does not look at role bindings, which have no name", async () => {
    expect(await violations(namingConvention, TYPE.RoleBinding, { groupUid: ORG })).toEqual([]);
  });
});

describe("identity-issuer-https", () => {
  it("is mandatory and refuses an http issuer", async () => {
    expect(identityIssuerHttps.enforcementLevel).toBe("mandatory");
    expect(
      await violations(identityIssuerHttps, TYPE.Identity, {
        claimMatch: { issuer: "http://issuer.example.com", subject: "s" },
      }),
    ).toEqual([
      'The identity\'s claimMatch.issuer "http://issuer.example.com" is not an https URL; tokens from it could be forged in transit.',
    ]);
  });

  it("refuses an issuer that is not a URL", async () => {
    expect(
      (
        await violations(identityIssuerHttps, TYPE.Identity, {
          claimMatch: { issuer: "github", subject: "s" },
        })
      )[0],
    ).toContain("is not a URL");
  });

  it("accepts https, and loopback http only when configured", async () => {
    expect(
      await violations(identityIssuerHttps, TYPE.Identity, {
        claimMatch: { issuer: "https://token.actions.githubusercontent.com" },
      }),
    ).toEqual([]);
    const local = { claimMatch: { issuer: "http://127.0.0.1:8080/oidc" } };
    expect(await violations(identityIssuerHttps, TYPE.Identity, local)).toHaveLength(1);
    expect(await violations(identityIssuerHttps, TYPE.Identity, local, { allowLoopbackHttp: true })).toEqual(
      [],
    );
  });
});

describe("no-broad-owner-binding", () => {
  it("warns when the owner role (by name) is bound in the root organization", async () => {
    expect(noBroadOwnerBinding.enforcementLevel).toBe("advisory");
    const msgs = await violations(
      noBroadOwnerBinding,
      TYPE.RoleBinding,
      { groupUid: ORG, roleUid: "r1", role: { name: "owner" } },
      {},
      "admin",
    );
    expect(msgs).toEqual([
      `The binding "admin" grants the owner role in the root organization ${ORG}: bind a narrower role, or bind owner in the team's own group.`,
    ]);
  });

  it("recognises the owner role by a configured uid before the binding exists", async () => {
    expect(
      await violations(
        noBroadOwnerBinding,
        TYPE.RoleBinding,
        { groupUid: ORG, roleUid: "own3r" },
        { ownerRoleUids: ["own3r"] },
      ),
    ).toHaveLength(1);
  });

  // Regression: a binding to a role created in the same preview (roleUid unknown) made Pulumi report
  // "can't run policy 'no-broad-owner-binding' … during preview" beside the stack check's warning.
  it("runs on a binding whose role uid is not known yet, finding nothing to say", async () => {
    const props = withUnknown({ groupUid: ORG, roleUid: "" }, "roleUid");
    expect(
      await violations(noBroadOwnerBinding, TYPE.RoleBinding, props, { ownerRoleUids: ["own3r"] }),
    ).toEqual([]);
  });

  it("allows owner in a team's own group and other roles at the root", async () => {
    expect(
      await violations(noBroadOwnerBinding, TYPE.RoleBinding, {
        groupUid: `${ORG}/0123456789abcdef`,
        role: { name: "owner" },
      }),
    ).toEqual([]);
    expect(
      await violations(noBroadOwnerBinding, TYPE.RoleBinding, { groupUid: ORG, role: { name: "viewer" } }),
    ).toEqual([]);
  });
});

describe("no-broad-owner-binding on custom roles (stack check)", () => {
  const TEAM = `${ORG}/0123456789abcdef`;
  const role = (name: string, capabilities: readonly string[], props: object = {}): StackResource => ({
    type: TYPE.Role,
    name,
    props: { parentUid: ORG, capabilities: [...capabilities].reverse(), ...props },
  });
  const binding = (name: string, roleFrom: StackResource | undefined, props: object = {}): StackResource => ({
    type: TYPE.RoleBinding,
    name,
    props: { groupUid: ORG, identityUid: `${ORG}/fedcba9876543210`, ...props },
    ...(roleFrom ? { roleFrom } : {}),
  });
  it("flags a root binding of a custom role granting every capability of owner, naming both", async () => {
    const admins = role("admins", OWNER_CAPABILITIES);
    admins.props = withUnknown({ ...admins.props, uid: "" }, "uid");
    expect(await stackViolations(noBroadOwnerBinding, [admins, binding("ci-admins", admins)])).toEqual([
      [
        "ci-admins",
        `The binding "ci-admins" grants the custom role "admins", which grants every capability of the owner role, in the root organization ${ORG}: bind a narrower role, or bind it in the team's own group.`,
      ],
    ]);
  });

  it("finds the role by its uid once known, when the binding names it directly", async () => {
    const admins = role("admins", [...OWNER_CAPABILITIES, "future.capability"], { uid: "a1b2" });
    expect(
      await stackViolations(noBroadOwnerBinding, [
        admins,
        binding("ci-admins", undefined, { roleUid: "a1b2" }),
      ]),
    ).toHaveLength(1);
  });

  it("leaves roles short of owner, the grant-and-define set, bindings below the root and unknown roles alone", async () => {
    const almost = role("almost", OWNER_CAPABILITIES.slice(1));
    const granting = role("granting", [
      "role_bindings.create",
      "roles.create",
      "roles.update",
      "groups.list",
    ]);
    const admins = role("admins", OWNER_CAPABILITIES);
    expect(
      await stackViolations(noBroadOwnerBinding, [
        almost,
        granting,
        admins,
        binding("b-almost", almost),
        binding("b-granting", granting),
        binding("b-team", admins, { groupUid: TEAM }),
        binding("b-elsewhere", undefined, { roleUid: "not-in-this-stack" }),
      ]),
    ).toEqual([]);
  });

  it("holds the capabilities of the owner role as the API client knows them", () => {
    expect([...OWNER_CAPABILITIES].sort()).toEqual(
      [...CAPABILITIES].filter((c) => c !== "repo.internal.admin").sort(),
    );
  });
});

describe("description-required", () => {
  it("is disabled by default and, when enabled, flags groups and identities without a description", async () => {
    expect(descriptionRequired.enforcementLevel).toBe("disabled");
    expect(await violations(descriptionRequired, TYPE.Group, { name: "team-a", description: " " })).toEqual([
      'The group "team-a" has no description.',
    ]);
    expect(
      await violations(descriptionRequired, TYPE.Identity, { name: "ci", description: "CI of team A" }),
    ).toEqual([]);
  });
});
