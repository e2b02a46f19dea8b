// What a user sees when the service cannot be reached or refuses the credentials, on the real
// engine (issue 17 part 3): each failure is one message naming the full URL, the cause and the
// stack config key to check — no "unhandled exception", no stack frames into this package, no
// inspected error object, no credential. Causes are made on loopback: a closed port, a name under
// the reserved `.invalid` TLD, https to the emulator's plain-HTTP port, a server that accepts and
// never answers, and the emulator refusing a token (401) or an action (403). A closed port is a
// held one (support/held-port.ts): a port merely freed can be taken by another worker's server
// before the program runs, and the test then met that server instead of a refusal (issue 47).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigValue, OperationResult, TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir } from "../harness/index.js";
import type { HeldPort } from "../support/held-port.js";
import { holdPort } from "../support/held-port.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { workloadIdentity } from "../support/workload-identity.js";

const listen = async (server: net.Server): Promise<number> => {
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return (server.address() as net.AddressInfo).port;
};

/** The error diagnostics of an operation, after checking that the whole output is free of noise. */
function errorsOf(result: OperationResult, secrets: string[]): string[] {
  expect(result.exitCode).not.toBe(0);
  const output = result.stdout + result.stderr;
  expect(output).not.toContain("unhandled exception");
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/(sdk|provider|dist)\/[\w/.-]+\.(ts|js)/);
  expect(output).not.toContain("[cause]");
  for (const secret of secrets) expect(output).not.toContain(secret);
  return diagnostics(result.events, "error")
    .map((d) => d.message.trim())
    .filter((m) => m !== "update failed" && m !== "refresh failed" && m !== "destroy failed");
}

describe("errors a user sees name the URL, the cause and the setting", () => {
  let irv: TestEmulator;
  let closed: HeldPort;
  let closedUrl: string;
  /** The port the "service is gone" test reaches its emulator through. */
  let served: HeldPort;
  let silentUrl: string;
  const silent = net.createServer(() => {
    // Accepts the connection and never answers.
  });
  let stack: TestStack;
  let secrets: string[];

  const previewLookups = async (config: Record<string, ConfigValue>) => {
    await stack.setConfig(config);
    return errorsOf(await stack.preview({ allowFailure: true }), secrets);
  };
  const lookupErrors = (url: string, rest: string) => [
    `irv.registry.getRepos failed: ${url}/registry/v2/repos: ${rest}`,
    `irv.vulnerabilities.getAdvisories failed: ${url}/vulnerabilities/v2/advisories: ${rest}`,
  ];

  beforeAll(async () => {
    irv = await startTestEmulator();
    secrets = [irv.emulator.adminToken];
    closed = await holdPort();
    closedUrl = closed.url;
    served = await holdPort();
    silentUrl = `http://127.0.0.1:${await listen(silent)}`;
    stack = await createStack({ program: fixtureDir("errors-program"), config: irv.config });
  });

  afterAll(async () => {
    await stack?.dispose();
    silent.close();
    await closed?.release();
    await served?.release();
    await irv?.close();
  });

  it("names the URL, 'connection refused' and irv:baseUrl for a closed port (lookups at preview)", async () => {
    const errors = await previewLookups({ "irv:baseUrl": closedUrl });
    expect(errors.sort()).toEqual(
      lookupErrors(
        closedUrl,
        `connection refused; check irv:baseUrl (or IRV_BASE_URL), now ${closedUrl}: is the IRV API served there?`,
      ),
    );
  });

  it("names an unknown host for a name that cannot resolve", async () => {
    const url = "https://irv-api.invalid";
    const errors = await previewLookups({ "irv:baseUrl": url });
    expect(errors.sort()).toEqual(
      lookupErrors(
        url,
        `unknown host (the DNS lookup found no such name); check irv:baseUrl (or IRV_BASE_URL), now ${url}: is the IRV API served there?`,
      ),
    );
  });

  it("names a TLS failure for https to a plain-HTTP server", async () => {
    const url = irv.emulator.baseUrl.replace("http://", "https://");
    const errors = await previewLookups({ "irv:baseUrl": url });
    expect(errors.sort()).toEqual(
      lookupErrors(
        url,
        "TLS failure (ERR_SSL_WRONG_VERSION_NUMBER); check the scheme of irv:baseUrl (or IRV_BASE_URL): an https URL needs a TLS server with a trusted certificate (a plain-HTTP local emulator is http://)",
      ),
    );
  });

  it("names a timeout and irv:timeoutSeconds for a server that never answers", async () => {
    const errors = await previewLookups({ "irv:baseUrl": silentUrl, "irv:timeoutSeconds": "0.2" });
    expect(errors.sort()).toEqual(
      lookupErrors(
        silentUrl,
        "timeout: no answer in time; the service did not answer within 0.2 s on any attempt: check irv:baseUrl (or IRV_BASE_URL) and the service's health, or raise irv:timeoutSeconds (or IRV_TIMEOUT_SECONDS)",
      ),
    );
    await stack.removeConfig("irv:timeoutSeconds");
  });

  it("names a 401 with the service's message and irv:token for a token the service refuses", async () => {
    const bad = "not-a-token-the-service-knows";
    secrets.push(bad);
    const errors = await previewLookups({
      "irv:baseUrl": irv.emulator.baseUrl,
      "irv:token": { value: bad, secret: true },
    });
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e).toMatch(
        /^irv\.(registry\.getRepos|vulnerabilities\.getAdvisories) failed: http:\/\/127\.0\.0\.1:\d+\/(registry|vulnerabilities)\/v2\/(repos|advisories): 401 UNAUTHENTICATED: .+; check irv:token \(or IRV_TOKEN\): the API does not accept that token/,
      );
    }
  });

  // Regression (issue 34): the hint read "the caller (irv:identity (or IRV_IDENTITY)) may not do
  // this", naming neither the missing capability nor the group.
  it("names a 403 with the service's message, irv:identity, the missing capability and the group when the identity may not create a group", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "irv-errors-"));
    try {
      const viewer = await workloadIdentity(irv, {
        subject: "repo:acme/read-only",
        dir,
        role: "viewer",
        name: "read-only",
      });
      secrets.push(viewer.workloadToken);
      await stack.removeConfig("irv:token");
      await stack.setConfig({ ...viewer.config, what: "group" });
      const result = await stack.up({ allowFailure: true });
      const errors = errorsOf(result, secrets);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        new RegExp(
          `^creating group "team": ${irv.emulator.baseUrl}/iam/v2/groups/${irv.emulator.orgUid}: 403 PERMISSION_DENIED: Permission denied: the caller may not create group resources in "${irv.emulator.orgUid}": it lacks groups.create on group "${irv.emulator.orgUid}"; the identity set by irv:identity \\(or IRV_IDENTITY\\) needs groups.create on group "${irv.emulator.orgUid}": bind it to a role that grants it there or on a group above$`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await stack.removeConfig("irv:identity", "irv:identityTokenFile", "what");
      await stack.setConfig(irv.config);
    }
  });

  it("names the token exchange's 403 and irv:identity when the workload token does not match the identity", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "irv-errors-"));
    try {
      const wi = await workloadIdentity(irv, { subject: "repo:acme/deployer", dir, name: "deployer" });
      secrets.push(wi.workloadToken);
      const other = await irv.admin.identities.create(irv.emulator.orgUid, {
        name: "someone-else",
        claimMatch: { issuer: irv.emulator.issuerUrl, subject: "repo:acme/other" },
      });
      await stack.removeConfig("irv:token");
      const errors = await previewLookups({ ...wi.config, "irv:identity": other.uid });
      expect(errors).toHaveLength(2);
      for (const e of errors)
        expect(e).toMatch(
          new RegExp(
            `^irv\\.(registry\\.getRepos|vulnerabilities\\.getAdvisories) failed: ${irv.emulator.authUrl}/sts/exchange: (getting an API token failed: )?the token exchange refused the workload token from the identity token file: .*PERMISSION_DENIED.*irv:identityTokenFile.*; check irv:identity \\(or IRV_IDENTITY\\): the workload token's issuer and subject must match that identity's claimMatch$`,
          ),
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await stack.removeConfig("irv:identity", "irv:identityTokenFile");
      await stack.setConfig(irv.config);
    }
  });

  // Regression (issue 47): the emulator's freed port was taken by another worker's emulator before
  // the refresh, which then reported "network failure". The service is reached through a held
  // port, which refuses from the moment the service stops until the test ends.
  it("names the URL and cause for a resource's create, read and delete when the service is gone", async () => {
    const gone = await startTestEmulator();
    secrets.push(gone.emulator.adminToken);
    const front = await served.forward(gone.emulator.baseUrl);
    await stack.setConfig({ ...gone.config, "irv:baseUrl": served.url, what: "group" });
    const created = await stack.up();
    const uid = created.outputs?.groupUid as string;
    await front.stop();
    await gone.close();
    const at = served.url;
    const check = `connection refused; check irv:baseUrl (or IRV_BASE_URL), now ${at}: is the IRV API served there?`;

    const refresh = await stack.refresh({ allowFailure: true });
    expect(errorsOf(refresh, secrets)).toEqual([
      `reading group ${uid}: ${at}/iam/v2/groups/${uid}: ${check}`,
    ]);

    const destroy = await stack.destroy({ allowFailure: true });
    expect(errorsOf(destroy, secrets)).toEqual([
      `deleting group ${uid}: ${at}/iam/v2/groups/${uid}: ${check}`,
    ]);

    // The group exists only in the state now: drop it, and create one where nothing listens.
    const state = await stack.exportState();
    const file = path.join(stack.workDir, "emptied-state.json");
    writeFileSync(file, JSON.stringify({ ...state, deployment: { ...state.deployment, resources: [] } }));
    await stack.run(["stack", "import", "--file", file, "--stack", stack.stackName]);
    const up = await stack.up({ allowFailure: true });
    const errors = errorsOf(up, secrets);
    expect(errors).toHaveLength(1);
    // The POST is refused, then the lookup of a possibly lost create too: either URL is the truth.
    expect([
      `creating group "team": ${at}/iam/v2/groups/${gone.emulator.orgUid}: ${check}`,
      `creating group "team": ${at}/iam/v2/groups: ${check}`,
    ]).toContain(errors[0]);
  });
});
