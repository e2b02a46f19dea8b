// A create that fails after its POST succeeded, through the real engine: the plugin answers with an
// ErrorResourceInitFailed detail and the engine records the group in the state (not leaked), the
// next `up` completes it and `destroy` deletes it. The kinds' creates are one POST each, so the
// failing second step is this test's: the engine attaches to an in-process plugin whose create
// makes the group through the kind table and then fails (PULUMI_DEBUG_PROVIDERS).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NativeProvider,
  RESOURCE_PROVIDER_SERVICE,
  resourceProviderService,
} from "../../../provider/plugin/index.js";
import type { Props } from "../../../provider/runtime/index.js";
import type { TestStack } from "../harness/index.js";
import { createStack, pulumiBinDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { resourceRoutes, startTestEmulator } from "../support/irv-emulator.js";
import { prepareNativePlugin } from "../support/native-plugin.js";

const PROGRAM = `name: irv-yaml-partial-create
runtime: yaml
config:
  orgUid: { type: string }
resources:
  team:
    type: irv:iam:Group
    properties:
      parentUid: \${orgUid}
      description: Made in two steps
outputs:
  teamUid: \${team.uid}
`;

// The group is made; the step after it fails while `failing` is set.
class SecondStepFails extends NativeProvider {
  failing = true;

  override async create(token: string, inputs: Props, preview: boolean) {
    const made = await super.create(token, inputs, preview);
    if (preview || !this.failing) return made;
    throw Object.assign(new Error(`creating group "${inputs.name}": the second step failed`), {
      id: made.id,
      properties: made.outs,
    });
  }
}

describe("a create that fails after its POST, through the engine", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let server: grpc.Server;
  let provider: SecondStepFails;
  let dir: string;

  beforeAll(async () => {
    const plugin = await prepareNativePlugin(pulumiBinDir());
    irv = await startTestEmulator();
    const schema = readFileSync(path.join(plugin.dir, "schema.json"), "utf8");
    provider = new SecondStepFails(Object.keys((JSON.parse(schema) as { resources: object }).resources));
    server = new grpc.Server();
    server.addService(
      RESOURCE_PROVIDER_SERVICE,
      resourceProviderService(provider, { version: plugin.version, schema }),
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    dir = mkdtempSync(path.join(os.tmpdir(), "irv-yaml-partial-"));
    writeFileSync(path.join(dir, "Pulumi.yaml"), PROGRAM);
    stack = await createStack({
      program: dir,
      config: irv.config,
      // The engine talks to the plugin in this process instead of starting one.
      env: { ...plugin.env, PULUMI_DEBUG_PROVIDERS: `irv:${port}` },
    });
    await plugin.install(stack);
  });

  afterAll(async () => {
    await stack?.dispose();
    server?.forceShutdown();
    await irv?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("records the group the failed create made, with its uid, instead of leaking it", async () => {
    const up = await stack.up({ allowFailure: true });
    expect(up.exitCode).not.toBe(0);
    expect(up.stdout + up.stderr).toContain('creating group "team": the second step failed');
    const [team] = await stack.resources();
    expect(team?.type).toBe("irv:iam:Group");
    expect(await irv.admin.groups.get(team?.id ?? "")).toMatchObject({ name: "team" });
    expect(team?.outputs).toMatchObject({ uid: team?.id, description: "Made in two steps" });
    // The message is the reason the engine keeps and shows again at the next up.
    expect(team?.initErrors).toEqual(['creating group "team": the second step failed']);
  });

  it("completes it at the next up without a second POST, and destroy deletes it", async () => {
    provider.failing = false;
    await irv.resetStats();
    const up = await stack.up();
    expect(resourceRoutes((await irv.stats()).requests)["POST /iam/v2/groups/*"]).toBeUndefined();
    const teamUid = String(up.outputs?.teamUid);
    expect((await stack.resources()).map((r) => r.id)).toEqual([teamUid]);
    await stack.destroy();
    expect(await irv.admin.groups.find(teamUid)).toBeUndefined();
  });
});
