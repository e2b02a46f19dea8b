// Credentials never leak: after real runs with a static token and with workload identity (an OIDC
// token file exchanged for API tokens) — successful ones and ones refused for a bad credential —
// neither the static token, nor the OIDC token, nor any exchanged API token (or any JWT at all)
// appears in the exported state, the engine's event log, stdout/stderr, or the error messages.
// The one place Pulumi itself keeps a secret config value is the provider's config in the state,
// encrypted; only `--show-secrets` decrypts it, and even then our resources hold no credential.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationResult, StackState, TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import type { OrgTreeShape } from "../support/org-tree.js";
import { orgTreeConfig } from "../support/org-tree.js";
import type { WorkloadIdentity } from "../support/workload-identity.js";
import { workloadIdentity } from "../support/workload-identity.js";

const JWT = /eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/;

/** Where in `texts` a secret (or any JWT) occurs, with the match blanked; empty when clean. */
function leaks(texts: Record<string, string>, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const [where, text] of Object.entries(texts)) {
    for (const secret of secrets) {
      const at = text.indexOf(secret);
      if (at >= 0)
        found.push(
          `${where}: …${text.slice(Math.max(0, at - 80), at)}[SECRET]${text.slice(at + secret.length, at + secret.length + 40)}…`,
        );
    }
    const jwt = JWT.exec(text);
    if (jwt) found.push(`${where}: a JWT …${text.slice(Math.max(0, jwt.index - 80), jwt.index)}[JWT]…`);
  }
  return found;
}

/** stdout, stderr and event log of an operation, as texts to scan. */
function outputsOf(name: string, r: OperationResult): Record<string, string> {
  return {
    [`${name} stdout`]: r.stdout,
    [`${name} stderr`]: r.stderr,
    [`${name} event log`]: JSON.stringify(r.events),
  };
}

async function statesOf(name: string, stack: TestStack): Promise<Record<string, string>> {
  return {
    [`${name} exported state`]: JSON.stringify(await stack.exportState()),
    [`${name} exported state, secrets shown, our resources`]: JSON.stringify(
      ourResources(await stack.exportState({ showSecrets: true })),
    ),
  };
}

const ourResources = (state: StackState) =>
  (state.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/irv:"));

describe("credentials in state, event logs, output and errors", () => {
  const shape: OrgTreeShape = { groups: 2, identities: 2, bindings: 2, prefix: "secret" };
  let irv: TestEmulator;
  let dir: string;
  let wi: WorkloadIdentity;
  let staticStack: TestStack;
  let workloadStack: TestStack;

  beforeAll(async () => {
    irv = await startTestEmulator();
    dir = mkdtempSync(path.join(tmpdir(), "irv-secrets-"));
    wi = await workloadIdentity(irv, { subject: "repo:acme/secrets:ref:refs/heads/main", dir });
    staticStack = await createStack({
      program: fixtureDir("org-tree-program"),
      config: { ...irv.config, ...orgTreeConfig({ ...shape, prefix: "static" }) },
    });
    workloadStack = await createStack({
      program: fixtureDir("org-tree-program"),
      config: {
        ...wi.config,
        orgUid: irv.emulator.orgUid,
        ...orgTreeConfig({ ...shape, prefix: "workload" }),
      },
    });
  });

  afterAll(async () => {
    await staticStack?.dispose();
    await workloadStack?.dispose();
    await irv?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a static token appears nowhere after up, refresh and destroy, except encrypted as stack config", async () => {
    const token = irv.emulator.adminToken;
    const texts: Record<string, string> = {};
    Object.assign(texts, outputsOf("up", await staticStack.up()));
    Object.assign(texts, outputsOf("refresh", await staticStack.refresh()));
    Object.assign(texts, await statesOf("static", staticStack));
    expect(leaks(texts, [token])).toEqual([]);

    // Pulumi keeps the provider's config (all stack config) in the state: the token is there only as
    // ciphertext, and in plain text only when asked for with --show-secrets.
    const shown = await staticStack.exportState({ showSecrets: true });
    const holders = (shown.deployment.resources ?? []).filter((r) => JSON.stringify(r).includes(token));
    expect(holders.map((r) => r.type)).toEqual(["pulumi:providers:pulumi-nodejs"]);

    expect(leaks(outputsOf("destroy", await staticStack.destroy()), [token])).toEqual([]);
  });

  it("the OIDC token and the exchanged API tokens appear nowhere after up, refresh and destroy", async () => {
    const texts: Record<string, string> = {};
    Object.assign(texts, outputsOf("up", await workloadStack.up()));
    Object.assign(texts, outputsOf("refresh", await workloadStack.refresh()));
    Object.assign(texts, await statesOf("workload", workloadStack));
    // With a token file nothing secret is in the stack config, so not even --show-secrets finds one.
    texts["workload exported state, secrets shown"] = JSON.stringify(
      await workloadStack.exportState({ showSecrets: true }),
    );
    Object.assign(texts, outputsOf("destroy", await workloadStack.destroy()));
    expect((await irv.stats()).requests["GET /auth/sts/exchange"]).toBeGreaterThan(0);
    expect(leaks(texts, [wi.workloadToken, irv.emulator.adminToken])).toEqual([]);
  });

  it("a refused static token fails the run with UNAUTHENTICATED and without the token", async () => {
    const wrong = "irv-wrong-static-token-3f9a1c7e5b2d4f60";
    await staticStack.setConfig({ "irv:token": { value: wrong, secret: true } });
    // With bindings the program's getRole data source meets the refusal first; without, the provider.
    const inProgram = await staticStack.up({ allowFailure: true });
    await staticStack.setConfig({ bindings: "0" });
    const inProvider = await staticStack.up({ allowFailure: true });
    await staticStack.setConfig({
      "irv:token": { value: irv.emulator.adminToken, secret: true },
      bindings: String(shape.bindings),
    });

    for (const [where, up] of [
      ["program", inProgram],
      ["provider", inProvider],
    ] as const) {
      expect(up.exitCode, where).not.toBe(0);
      const errors = diagnostics(up.events, "error").map((d) => d.message);
      expect(errors.join("\n"), where).toMatch(/UNAUTHENTICATED/);
      expect(
        leaks({ ...outputsOf(`refused up (${where})`, up), errors: errors.join("\n") }, [wrong]),
      ).toEqual([]);
    }
    expect(inProvider.stdout).toMatch(/creating group/);
  });

  it("a refused OIDC token fails the run with PERMISSION_DENIED and without the token", async () => {
    // A genuine token of the issuer, but for a subject the identity does not accept.
    const other = await irv.emulator.mintIdentityToken({
      subject: "repo:someone-else/app:ref:refs/heads/main",
    });
    writeFileSync(wi.tokenFile, other);
    const inProgram = await workloadStack.up({ allowFailure: true });
    await workloadStack.setConfig({ bindings: "0" });
    const inProvider = await workloadStack.up({ allowFailure: true });
    await workloadStack.setConfig({ bindings: String(shape.bindings) });
    writeFileSync(wi.tokenFile, wi.workloadToken);

    for (const [where, up] of [
      ["program", inProgram],
      ["provider", inProvider],
    ] as const) {
      expect(up.exitCode, where).not.toBe(0);
      const errors = diagnostics(up.events, "error").map((d) => d.message);
      expect(errors.join("\n"), where).toMatch(/PERMISSION_DENIED/);
      expect(
        leaks({ ...outputsOf(`refused up (${where})`, up), errors: errors.join("\n") }, [
          other,
          wi.workloadToken,
        ]),
      ).toEqual([]);
    }
    expect(inProvider.stdout).toMatch(/creating group/);
  });
});
