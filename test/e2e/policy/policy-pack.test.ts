// The policy pack with the real engine: `pulumi preview --policy-pack policy` on programs with and
// without mistakes, as a pull-request check runs it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineEvent, TestStack } from "../harness/index.js";
import { createStack, fixtureDir, policyViolations } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
// The pack as a user installs it (the workspace link to policy/).
const PACK = path.join(root, "node_modules", "pulumi-irv-policy");

function packConfig(config: object): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "irv-policy-")), "policy-config.json");
  writeFileSync(file, JSON.stringify(config));
  return file;
}

// Each violation as "<level> <policy> <resource name>: <message>".
function described(events: EngineEvent[]): string[] {
  return policyViolations(events).map(
    (v) => `${v.enforcementLevel} ${v.policyName} ${v.resourceUrn?.split("::").pop()}: ${v.message}`,
  );
}

describe("the policy pack on pulumi preview", () => {
  let irv: TestEmulator;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    irv = await startTestEmulator();
  });

  afterAll(async () => {
    for (const s of stacks) await s.dispose();
    await irv?.close();
  });

  it("blocks a program with mistakes and names each policy, resource and problem", async () => {
    const stack = await createStack({
      program: path.join(root, "examples", "policy-violations"),
      config: { ...irv.config, ssoClientSecret: { value: "sso-client-secret", secret: true } },
    });
    stacks.push(stack);
    const owner = (await irv.admin.roles.list({ name: "owner" })).items[0]!;
    const result = await stack.preview({
      policyPacks: [PACK],
      policyPackConfigs: [packConfig({ "no-broad-owner-binding": { ownerRoleUids: [owner.uid] } })],
      allowFailure: true,
    });
    expect(result.exitCode).not.toBe(0);
    const found = described(result.events);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^mandatory group-name-pattern payments: .*Group name "Team Payments" does not match \^\[a-z0-9 \._-\]\{1,\}\$/s,
        ),
        expect.stringMatching(
          /^mandatory identity-issuer-https payments_ci: .*"http:\/\/localhost:8080\/oidc" is not an https URL/s,
        ),
        expect.stringMatching(
          /^advisory naming-convention payments_ci: .*does not follow the naming convention/s,
        ),
        expect.stringMatching(
          /^advisory no-broad-owner-binding payments-ci-owner: .*grants the owner role in the root organization/s,
        ),
        expect.stringMatching(
          /^advisory invite-expiration-bounded contractor: .*stays valid for 720 hours, more than 7 days/s,
        ),
        expect.stringMatching(
          /^mandatory identity-match-too-broad payments-deploy: .*subjectPattern "repo:acme\/\.\*" (matches any value|spans GitHub repositories)/s,
        ),
        expect.stringMatching(
          /^advisory custom-role-least-privilege platform-admin: .*The role "platform-admin" grants role_bindings\.create, roles\.create below the root/s,
        ),
      ]),
    );
    // Every policy could judge every resource, new groups' and roles' unknown uids notwithstanding.
    expect(found.filter((f) => f.includes("can't run policy"))).toEqual([]);
    // A preview stops at the first resource the provider refuses (the team's name): with the name
    // fixed, the next preview of the same stack reaches the identity provider behind it.
    await stack.setConfig({ teamName: "payments" });
    const next = await stack.preview({ policyPacks: [PACK], allowFailure: true });
    expect(next.exitCode).not.toBe(0);
    const nextFound = described(next.events);
    expect(nextFound).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^mandatory idp-issuer-https sso: .*oidc\.issuer "http:\/\/sso\.example\.com" is not an https URL/s,
        ),
      ]),
    );
    expect(nextFound.filter((f) => f.includes("group-name-pattern"))).toEqual([]);
    // Nothing was created: the previews stopped the change before any write.
    expect(await irv.admin.groups.collect({ descendantsOf: irv.emulator.orgUid })).toEqual([]);
  });

  it("warns about a root binding of a custom role granting everything the owner role does", async () => {
    const stack = await createStack({
      program: path.join(root, "examples", "owner-equivalent-role"),
      config: irv.config,
    });
    stacks.push(stack);
    // access-broadening in shadow mode (advisory), as a team adopting it starts.
    const result = await stack.preview({
      policyPacks: [PACK],
      policyPackConfigs: [packConfig({ "access-broadening": { enforcementLevel: "advisory" } })],
    });
    // Advisory: the preview passes, with the warning on the binding and the access review's finding.
    expect(result.exitCode).toBe(0);
    const found = described(result.events);
    expect(found).toHaveLength(2);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^advisory no-broad-owner-binding deploy-ci-admins: .*grants the custom role "org-admins", which grants every capability of the owner role, in the root organization/s,
        ),
        expect.stringMatching(
          /^advisory access-broadening \S+: .*deploy-ci gained all of org-admins \(\d+\) on \/ through deploy-ci-admins → org-admins \[owner-equivalent, escalation, root, new-identity\]: not approved/s,
        ),
      ]),
    );
  });

  // Issue 25 item 5: the README said a stack check runs "only when no mandatory violation stopped
  // the preview"; the engine runs stack policies after mandatory resource violations too (only a
  // resource the provider refuses stops a preview earlier).
  it("still runs the stack check when a mandatory resource violation fails the preview", async () => {
    const stack = await createStack({
      program: path.join(root, "examples", "owner-equivalent-role"),
      config: irv.config,
    });
    stacks.push(stack);
    const result = await stack.preview({
      policyPacks: [PACK],
      policyPackConfigs: [
        packConfig({
          "naming-convention": { enforcementLevel: "mandatory", identityPattern: "^svc-[a-z-]+$" },
        }),
      ],
      allowFailure: true,
    });
    expect(result.exitCode).not.toBe(0);
    expect(described(result.events)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^mandatory naming-convention deploy-ci: /),
        expect.stringMatching(/^advisory no-broad-owner-binding deploy-ci-admins: /),
      ]),
    );
  });

  it("lets a conforming org tree through without a violation", async () => {
    const spec = {
      groups: [
        { key: "platform", parent: "org" },
        { key: "team-a", parent: "platform" },
      ],
      identities: [{ key: "team-a-ci", group: "team-a", subject: "repo:acme/a:ref:refs/heads/main" }],
    };
    const stack = await createStack({
      program: fixtureDir("org-program"),
      config: { ...irv.config, spec: JSON.stringify(spec) },
    });
    stacks.push(stack);
    const result = await stack.preview({ policyPacks: [PACK] });
    expect(result.exitCode).toBe(0);
    expect(policyViolations(result.events)).toEqual([]);
  });

  it("makes the naming convention mandatory through the pack config", async () => {
    const spec = { groups: [{ key: "platform", parent: "org" }] };
    const stack = await createStack({
      program: fixtureDir("org-program"),
      config: { ...irv.config, spec: JSON.stringify(spec) },
    });
    stacks.push(stack);
    const config = packConfig({
      "naming-convention": { enforcementLevel: "mandatory", groupPattern: "^team-[a-z0-9-]+$" },
    });
    const result = await stack.preview({
      policyPacks: [PACK],
      policyPackConfigs: [config],
      allowFailure: true,
    });
    expect(result.exitCode).not.toBe(0);
    expect(policyViolations(result.events).map((v) => [v.enforcementLevel, v.policyName, v.message])).toEqual(
      [
        [
          "mandatory",
          "naming-convention",
          expect.stringContaining(
            'The group name "platform" does not follow the naming convention ^team-[a-z0-9-]+$.',
          ),
        ],
      ],
    );
  });
});
