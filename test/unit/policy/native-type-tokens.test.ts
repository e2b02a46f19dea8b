import type { ResourceValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import {
  customRoleLeastPrivilege,
  descriptionRequired,
  groupNamePattern,
  identityIssuerHttps,
  identityMatchTooBroad,
  idpIssuerHttps,
  inviteExpirationBounded,
  namingConvention,
  noBroadOwnerBinding,
  pullTokenTtlBounded,
} from "../../../policy/policies/index.js";
import { NATIVE_TYPE, TYPE } from "../../../policy/type-tokens.js";
import { resourceToken } from "../../../provider/plugin/index.js";
import { RESOURCE_TYPES } from "../../../provider/stub/index.js";
import { violations } from "./run-policy.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";

// One violating resource per resource policy, in the terms of its kind.
const CASES: [string, ResourceValidationPolicy, keyof typeof TYPE, Record<string, unknown>][] = [
  ["group-name-pattern", groupNamePattern, "Group", { name: "Platform Team", parentUid: ORG }],
  ["naming-convention", namingConvention, "Group", { name: "Platform_Team" }],
  ["description-required", descriptionRequired, "Group", { name: "team-a" }],
  [
    "identity-issuer-https",
    identityIssuerHttps,
    "Identity",
    { claimMatch: { issuer: "http://i.example", subject: "s" } },
  ],
  [
    "identity-match-too-broad",
    identityMatchTooBroad,
    "Identity",
    { claimMatch: { issuerPattern: ".*", subject: "s" } },
  ],
  ["idp-issuer-https", idpIssuerHttps, "IdentityProvider", { oidc: { issuer: "http://login.example.com" } }],
  ["invite-expiration-bounded", inviteExpirationBounded, "GroupInvite", { ttl: "169h" }],
  ["pull-token-ttl-bounded", pullTokenTtlBounded, "PullToken", { ttl: "8760h" }],
  [
    "no-broad-owner-binding",
    noBroadOwnerBinding,
    "RoleBinding",
    { groupUid: ORG, roleUid: "r1", role: { name: "owner" } },
  ],
  [
    "custom-role-least-privilege",
    customRoleLeastPrivilege,
    "Role",
    { parentUid: `${ORG}/0123456789abcdef`, capabilities: ["role_bindings.create"] },
  ],
];

describe("the policy pack on resources of the native plugin (irv:<module>:<Kind>)", () => {
  it("knows the plugin's token of every resource type", () => {
    expect(Object.keys(NATIVE_TYPE).sort()).toEqual([...RESOURCE_TYPES].sort());
    for (const type of RESOURCE_TYPES) expect(NATIVE_TYPE[type]).toBe(resourceToken(type));
  });

  it.each(CASES)(
    "%s reports the same violation on the native token as on the dynamic one",
    async (_, policy, kind, props) => {
      const dynamic = await violations(policy, TYPE[kind], props);
      expect(dynamic).not.toEqual([]);
      expect(await violations(policy, NATIVE_TYPE[kind], props)).toEqual(dynamic);
    },
  );
});
