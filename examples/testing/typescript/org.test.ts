// The program, run by the Automation API against a fresh emulator (`startEmulator` of
// pulumi-irv-emulator, in this process, in memory): up, the tree read back from the emulator's API,
// destroy. The emulator closes after the tests, whether they passed or failed.
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation/index.js";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import type { EmulatorHandle, WebhookSink } from "pulumi-irv-emulator";
import { startEmulator, startWebhookSink } from "pulumi-irv-emulator";
import { afterAll, beforeAll, expect, it } from "vitest";
import { program } from "./org.ts";

let irv: EmulatorHandle;
let sink: WebhookSink;
let stack: Stack;
let work: string;

/** One API read with the admin token: the status and the body. */
async function get(urlPath: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${irv.baseUrl}${urlPath}`, {
    headers: { authorization: `Bearer ${irv.adminToken}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  irv = await startEmulator({ port: 0 });
  // A receiver on loopback, subscribed to the organization's webhooks.
  sink = await startWebhookSink(irv);
  // Inside this directory: the engine's dynamic providers load @pulumi/pulumi from the project's node_modules.
  work = mkdtempSync(path.join(import.meta.dirname, ".pulumi-"));
  stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "test", projectName: "irv-org", program: program(irv.orgUid) },
    {
      workDir: work,
      projectSettings: { name: "irv-org", runtime: "nodejs", backend: { url: `file://${work}` } },
      secretsProvider: "passphrase",
      envVars: { PULUMI_CONFIG_PASSPHRASE: "test-only" },
    },
  );
  await stack.setAllConfig({
    "irv:baseUrl": { value: irv.baseUrl },
    "irv:authUrl": { value: irv.authUrl },
    "irv:token": { value: irv.adminToken, secret: true },
  });
}, 120_000);

afterAll(async () => {
  await sink?.close();
  await irv?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

it("makes the team's group and CI identity, and destroy removes them", async () => {
  const { outputs } = await stack.up();
  const team = await get(`/iam/v2/groups/${outputs.teamUid?.value}`);
  // A child's uid is its parent's uid, "/", and its own 16 hex digits.
  expect(team.body).toMatchObject({ name: "team-payments", description: "The payments team" });
  expect(team.body.uid).toMatch(new RegExp(`^${outputs.platformUid?.value}/[0-9a-f]{16}$`));
  const ci = await get(`/iam/v2/identities/${outputs.ciUid?.value}`);
  expect(ci.body).toMatchObject({ claimMatch: { subject: "repo:acme/payments:ref:refs/heads/main" } });
  // The webhook of the team group's creation: its subject is the group's uid, its body the group.
  const created = await sink.waitFor("dev.chainguard.api.iam.group.created.v1", {
    subject: team.body.uid as string,
  });
  expect(created.extensions.bodytype).toBe("chainguard.platform.iam.v2beta1.Group");
  expect(created.data.body).toMatchObject({ name: "team-payments" });

  await stack.destroy();
  expect((await get(`/iam/v2/groups/${outputs.teamUid?.value}`)).status).toBe(404);
  await sink.waitFor("dev.chainguard.api.iam.group.deleted.v1", { subject: team.body.uid as string });
}, 300_000);
