// examples/quickstart (what `npm run demo` runs) against a fresh emulator with seeded repos and
// advisories: up, outputs, a no-change preview, the policy pack as docs/policy-pack.md runs it, destroy.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, policyViolations } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { seedAdvisory, seedRepo, startTestEmulator } from "../support/irv-emulator.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("examples/quickstart", () => {
  let irv: TestEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    irv = await startTestEmulator();
    for (const name of ["web", "api"]) await seedRepo(irv, irv.emulator.orgUid, name);
    await seedAdvisory(irv, irv.emulator.orgUid, {
      advisoryId: "CGA-2222-3333-4444",
      aliases: ["GHSA-aaaa-bbbb-cccc", "CVE-2026-0001"],
      severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
    });
    await seedAdvisory(irv, irv.emulator.orgUid, {
      advisoryId: "CGA-5555-6666-7777",
      aliases: ["CVE-2026-0002"],
      severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:N/I:N/A:L" }],
    });
    stack = await createStack({
      program: path.join(root, "examples", "quickstart"),
      config: { ...irv.config, teams: JSON.stringify(["payments", "search", "web"]) },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("builds the org tree and reports repos and advisories as outputs", async () => {
    const { outputs } = await stack.up();
    expect(outputs).toMatchObject({
      repoNames: ["api", "web"],
      advisoryCount: 2,
      advisoryAliases: ["CVE-2026-0001", "CVE-2026-0002", "GHSA-aaaa-bbbb-cccc"],
      networkExploitable: ["CGA-2222-3333-4444"],
      ciRoles: { payments: "viewer", search: "viewer", web: "viewer" },
    });
    const platform = outputs?.platformUid as string;
    const teams = await irv.admin.groups.collect({ childrenOf: platform, orderBy: "name" });
    expect(teams.map((t) => t.name)).toEqual(["team-payments", "team-search", "team-web"]);
    const identities = (outputs?.ciIdentities ?? {}) as Record<string, string>;
    const ci = await irv.admin.identities.get(identities.search as string);
    expect(ci.claimMatch).toEqual({
      issuer: "https://token.actions.githubusercontent.com",
      subject: "repo:acme/search:ref:refs/heads/main",
    });
    const release = await irv.admin.identities.get(outputs?.releaseIdentity as string);
    expect(release.claimMatch?.subjectPattern).toBe("repo:acme/platform:ref:refs/heads/release-.+");
    expect(outputs?.releaseCapabilities).toEqual(["advisories.list", "groups.list", "repo.list", "tag.list"]);
  });

  it("previews no change on a second run", async () => {
    const result = await stack.preview({ args: ["--expect-no-changes"] });
    expect(result.exitCode).toBe(0);
  });

  it("passes the policy pack as docs/policy-pack.md shows it, with no further setup, on the unchanged stack", async () => {
    // The command exactly as the guide writes it; the pack path is where `npm install` puts it.
    const guide = readFileSync(path.join(root, "docs", "policy-pack.md"), "utf8");
    const line = guide.split("\n").find((l) => l.startsWith("pulumi preview --policy-pack "));
    expect(line).toBe("pulumi preview --policy-pack node_modules/pulumi-irv-policy");
    const pack = path.join(root, "node_modules", "pulumi-irv-policy");
    const result = await stack.preview({ policyPacks: [pack], allowFailure: true });
    expect(policyViolations(result.events).map((v) => `${v.policyName}: ${v.message}`)).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it("destroys everything it created", async () => {
    await stack.destroy();
    expect(await irv.admin.groups.collect({ descendantsOf: irv.emulator.orgUid })).toEqual([]);
    expect(await irv.admin.identities.collect({ descendantsOf: irv.emulator.orgUid })).toEqual([]);
  });
});
