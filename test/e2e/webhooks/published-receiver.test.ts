// The emulator's webhooks as a customer's receiver checks them (issue 46): a Go receiver making the
// published events/receiver's checks (receiver/main.go says why it is a stand-in) — set up with the
// ready line's issuerUrl and the org uid, as `receiver.NewHTTPHandler(ctx, issuerUrl, orgUid, fn)`
// would be — accepts every delivery of an `up` and a `destroy` of the IAM kinds' program on the real
// engine: one per write, each token verified through the issuer's discovery and JWKS, for the org's
// group, over the data's digest.
import type { ChildProcess } from "node:child_process";
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";

const exec = promisify(execFile);
const receiverDir = path.join(import.meta.dirname, "receiver");

/** One delivery the receiver accepted (a line of its stdout). */
interface Accepted {
  id: string;
  type: string;
  subject: string;
  group: string;
  bodytype: string;
  audience: string;
  actorSubject: string;
  hasBody: boolean;
}

const SPEC = {
  roles: [{ key: "auditor", description: "Reads the tree", capabilities: ["identity.list", "groups.list"] }],
  identities: [
    {
      key: "gha",
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/app:ref:refs/heads/main",
      },
    },
  ],
  idps: [
    { key: "sso", defaultRole: "auditor", oidc: { issuer: "https://login.example.com", clientId: "irv" } },
  ],
  invites: [{ key: "dev", role: "viewer", ttl: "168h" }],
  accounts: [{ key: "clouds", amazon: { account: "123456789012" } }],
};

describe("a receiver with the published receiver's checks", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let work: string;
  let receiver: ChildProcess;
  const accepted: Accepted[] = [];
  const refusals: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "irv-webhook-receiver-"));
    const bin = path.join(work, "receiver");
    // Its two modules come from the Go module proxy (or the module cache) on the first build.
    await exec("go", ["build", "-o", bin, "."], {
      cwd: receiverDir,
      env: { ...process.env, GOFLAGS: "-mod=mod" },
    });
    irv = await startTestEmulator();
    const { issuerUrl, orgUid } = irv.emulator;
    receiver = spawn(bin, ["-issuer", issuerUrl, "-group", orgUid], { stdio: ["ignore", "pipe", "pipe"] });
    createInterface({ input: receiver.stderr as NodeJS.ReadableStream }).on("line", (l) => refusals.push(l));
    const lines = createInterface({ input: receiver.stdout as NodeJS.ReadableStream });
    const url = await new Promise<string>((resolve, reject) => {
      receiver.once("exit", (code) =>
        reject(new Error(`the receiver exited ${code}: ${refusals.join("\n")}`)),
      );
      lines.once("line", (l) => resolve((JSON.parse(l) as { url: string }).url));
    });
    lines.on("line", (l) => accepted.push(JSON.parse(l) as Accepted));
    const subscribed = await fetch(`${irv.emulator.baseUrl}/events/v2beta1/subscriptions/${orgUid}`, {
      method: "POST",
      headers: { authorization: `Bearer ${irv.emulator.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ sink: url }),
    });
    if (!subscribed.ok) throw new Error(`subscribing: HTTP ${subscribed.status} ${await subscribed.text()}`);
    stack = await createStack({
      program: fixtureDir("iam-kinds-program"),
      config: {
        ...irv.config,
        spec: JSON.stringify(SPEC),
        idpSecret: { value: Buffer.from("idp-client-secret").toString("base64"), secret: true },
        issuerKeys: { value: Buffer.from('{"keys":[]}').toString("base64"), secret: true },
      },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    receiver?.kill();
    await irv?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  /** Waits until the emulator has no delivery pending. */
  const settled = async () => {
    while (irv.emulator.deliveries({ outcome: "pending" }).length > 0)
      await new Promise((r) => setTimeout(r, 20));
  };

  it("accepts every delivery of an up and a destroy: one per write, none refused", async () => {
    const up = await stack.up();
    expect(diagnostics(up.events, "error")).toEqual([]);
    await stack.destroy();
    await settled();
    const deliveries = irv.emulator.deliveries();
    // The program's writes: a group, a role, an identity, an identity provider, an invite, an
    // account association, each created and deleted (the subscription's own creation too).
    const types = new Set(deliveries.map((d) => d.type));
    for (const t of [
      "dev.chainguard.api.iam.group.created.v1",
      "dev.chainguard.api.iam.group.deleted.v1",
      "dev.chainguard.api.iam.roles.created.v1",
      "dev.chainguard.api.iam.roles.deleted.v1",
      "dev.chainguard.api.iam.identity.created.v1",
      "dev.chainguard.api.iam.identity.deleted.v1",
      "dev.chainguard.api.iam.identity_providers.created.v1",
      "dev.chainguard.api.iam.identity_providers.deleted.v1",
      "dev.chainguard.api.iam.group_invite.created.v1",
      "dev.chainguard.api.iam.group_invite.deleted.v1",
      "dev.chainguard.api.iam.account_associations.created.v1",
      "dev.chainguard.api.iam.account_associations.deleted.v1",
    ])
      expect(types).toContain(t);
    expect(refusals).toEqual([]);
    expect(deliveries.every((d) => d.outcome === "accepted" && d.attempts.length === 1)).toBe(true);
    // What the receiver accepted is what the emulator delivered, event for event.
    expect(accepted.map((a) => a.id).sort()).toEqual(deliveries.map((d) => d.eventId).sort());
    for (const a of accepted) {
      expect(a.audience).toBe("customer");
      expect(a.actorSubject).toBe("admin");
      expect(a.bodytype).toMatch(/^chainguard\.platform\.(iam|events)\.v2beta1\./);
      expect(a.group.startsWith(irv.emulator.orgUid)).toBe(true);
    }
  });
});
