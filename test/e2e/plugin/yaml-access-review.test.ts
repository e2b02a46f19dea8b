// The access review and the access-broadening gate on a Pulumi YAML program, run by the real YAML
// language host on the native plugin (irv:iam:* tokens and their input names): the unchanged stack
// passes the pack with no before file, and the risky edit (the CI identity's role at the root from
// viewer to owner) is one row "all of owner" in the review and blocked by the pack.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewJson } from "../../../review/index.js";
import type { TestStack } from "../harness/index.js";
import { createStack, fixtureDir, policyViolations, pulumiBinDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import type { NativePlugin } from "../support/native-plugin.js";
import { prepareNativePlugin } from "../support/native-plugin.js";
import { runOpsCli } from "../support/ops-cli.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PACK = path.join(root, "node_modules", "pulumi-irv-policy");

describe("access review of a Pulumi YAML program on pulumi-resource-irv", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let plugin: NativePlugin;
  let config: string;

  beforeAll(async () => {
    plugin = await prepareNativePlugin(pulumiBinDir());
    irv = await startTestEmulator();
    stack = await createStack({
      program: fixtureDir("yaml-access-program"),
      config: irv.config,
      env: plugin.env,
    });
    await plugin.install(stack);
    await stack.up();
    const roles = await irv.admin.roles.collect();
    config = path.join(mkdtempSync(path.join(os.tmpdir(), "irv-yaml-review-")), "policy-config.json");
    writeFileSync(config, JSON.stringify({ "access-broadening": { roles } }));
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  const gate = async () => {
    const result = await stack.preview({
      policyPacks: [PACK],
      policyPackConfigs: [config],
      allowFailure: true,
    });
    return {
      exitCode: result.exitCode,
      messages: policyViolations(result.events).map((v) => `${v.policyName}: ${v.message}`),
    };
  };

  it("the unchanged stack (viewer at the root) passes the pack with no before file", async () => {
    expect(await gate()).toEqual({ exitCode: 0, messages: [] });
  });

  it("the CI identity's role at the root made owner: one row gaining the rest of owner, blocked by the pack", async () => {
    await stack.setConfig({ ciRole: "owner" });
    const args = ["access-review", "--stack", stack.stackName, "--cwd", stack.projectDir, "--format", "json"];
    const json = await runOpsCli(args, { env: stack.env });
    expect(json.stderr).toBe("");
    const diff = (JSON.parse(json.stdout) as ReviewJson).stacks[0]!.diff;
    const owner = (await irv.admin.roles.collect({ name: "owner" }))[0]!;
    const viewer = (await irv.admin.roles.collect({ name: "viewer" }))[0]!;
    // Owner holds every capability of viewer: the edit gains the rest, through the same grant.
    expect(
      diff.map((r) => [r.state, r.identity.name, r.subtree.path, r.grant.binding, r.grant.role]),
    ).toEqual([["gained", "ci", "/", "ciAtRoot", "owner"]]);
    expect(diff[0]!.capabilities).toHaveLength(owner.capabilities.length - viewer.capabilities.length);
    expect(diff[0]!.risks).toEqual(expect.arrayContaining(["owner-equivalent", "root"]));
    const blocked = await gate();
    expect(blocked.exitCode).not.toBe(0);
    expect(blocked.messages).toEqual([
      expect.stringMatching(
        /^access-broadening: [\s\S]*\nci gained .* on \/ through ciAtRoot → owner \[owner-equivalent/,
      ),
    ]);
  });
});
