// grpcurl against `irv-emulator`'s one port (the built CLI, as `npm run emulator` runs it): it finds
// the services through server reflection alone, then creates, reads, lists, updates and deletes a
// group, an identity and a role binding, reads an error's details from grpc-status-details-bin, and
// exchanges a workload token.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliRun } from "../../integration/emulator/cli-process.js";
import { buildCliIfStale, runCli } from "../../integration/emulator/cli-process.js";
import { ensureGrpcurl } from "./grpcurl-tool.js";

let grpcurl: string;
let run: CliRun;
let ready: Record<string, string>;
let target: string;

beforeAll(async () => {
  grpcurl = await ensureGrpcurl();
  if (!buildCliIfStale()) throw new Error("the emulator CLI is not built");
  run = runCli(["--port", "0"]);
  ready = await run.ready;
  target = new URL(ready.baseUrl ?? "").host;
}, 600_000);
afterAll(async () => {
  run?.child.kill("SIGTERM");
  await run?.exit;
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function call(args: string[], token: string | undefined = ready.adminToken): Promise<Result> {
  const auth = token === undefined ? [] : ["-H", `authorization: Bearer ${token}`];
  return new Promise((resolve, reject) => {
    const child = spawn(grpcurl, ["-plaintext", ...auth, target, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

// One rpc with a JSON request; the JSON answer.
async function rpc<T = Record<string, unknown>>(method: string, request: object, token?: string): Promise<T> {
  const r = await callMethod(method, request, token);
  if (r.code !== 0) throw new Error(`${method}: ${r.stderr}`);
  return JSON.parse(r.stdout || "{}") as T;
}

function callMethod(method: string, request: object, token?: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const auth =
      (token ?? ready.adminToken) === "" ? [] : ["-H", `authorization: Bearer ${token ?? ready.adminToken}`];
    const args = ["-plaintext", "-format-error", ...auth, "-d", JSON.stringify(request), target, method];
    const child = spawn(grpcurl, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const IAM = "chainguard.platform.iam.v2beta1";

// The google.rpc.Status grpcurl prints for a failed call with -format-error (on stderr).
function statusOf(r: Result): { code: number; message: string; details: Record<string, unknown>[] } {
  const text = `${r.stdout}${r.stderr}`;
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
}

describe("grpcurl v1.9.4 against the emulator's one port", () => {
  it("lists the contract's services through reflection", async () => {
    const r = await call(["list"], undefined);
    expect(r.code, r.stderr).toBe(0);
    // Both API versions (issue 45): the GA copy beside v2beta1; overlays and bindings have no v2.
    expect(r.stdout.trim().split("\n")).toEqual([
      "chainguard.platform.events.v2.SubscriptionsService",
      "chainguard.platform.events.v2beta1.SubscriptionsService",
      ...["v2", "v2beta1"].flatMap((v) =>
        [
          "AccountAssociationsService",
          "ExternalGroupRoleMappingsService",
          "GroupInvitesService",
          "GroupsService",
          "IdentitiesService",
          "IdentityProvidersService",
          "RoleBindingsService",
          "RolesService",
        ].map((s) => `chainguard.platform.iam.${v}.${s}`),
      ),
      "chainguard.platform.oidc.SecurityTokenService",
      "chainguard.platform.registry.v2.ReposService",
      "chainguard.platform.registry.v2.TagsService",
      "chainguard.platform.registry.v2beta1.OverlayBindingsService",
      "chainguard.platform.registry.v2beta1.OverlaysService",
      "chainguard.platform.registry.v2beta1.ReposService",
      "chainguard.platform.registry.v2beta1.TagsService",
      "chainguard.platform.vulnerabilities.v2.AdvisoriesService",
      "chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService",
      "grpc.reflection.v1.ServerReflection",
      "grpc.reflection.v1alpha.ServerReflection",
    ]);
  });

  it("CRUD of a group, an identity and a binding; an error with its details; a token exchange", async () => {
    const org = ready.orgUid ?? "";
    const group = await rpc<{ uid: string; name: string }>(`${IAM}.GroupsService/CreateGroup`, {
      parent: org,
      group: { name: "by-grpcurl", description: "made by grpcurl" },
    });
    expect(group.uid.startsWith(`${org}/`)).toBe(true);
    expect(await rpc(`${IAM}.GroupsService/GetGroup`, { uid: group.uid })).toMatchObject({
      name: "by-grpcurl",
    });
    const updated = await rpc(`${IAM}.GroupsService/UpdateGroup`, {
      group: { uid: group.uid, description: "changed" },
      updateMask: { paths: ["description"] },
    });
    expect(updated).toMatchObject({ name: "by-grpcurl", description: "changed" });
    const listed = await rpc<{ groups: { uid: string }[]; totalCount: string }>(
      `${IAM}.GroupsService/ListGroups`,
      {
        uidp: { childrenOf: org },
      },
    );
    expect(listed.groups.map((g) => g.uid)).toContain(group.uid);

    const identity = await rpc<{ uid: string }>(`${IAM}.IdentitiesService/CreateIdentity`, {
      parent: group.uid,
      identity: { name: "workload", claimMatch: { issuer: ready.issuerUrl, subject: "grpcurl-subject" } },
    });
    expect(await rpc(`${IAM}.IdentitiesService/GetIdentity`, { uid: identity.uid })).toMatchObject({
      claimMatch: { issuer: ready.issuerUrl, subject: "grpcurl-subject" },
    });
    await rpc(`${IAM}.IdentitiesService/UpdateIdentity`, {
      identity: { uid: identity.uid, description: "runs grpcurl" },
      updateMask: { paths: ["description"] },
    });
    const roles = await rpc<{ roles: { uid: string }[] }>(`${IAM}.RolesService/ListRoles`, {
      name: "viewer",
    });
    const binding = await rpc<{ uid: string; role: { name: string } }>(
      `${IAM}.RoleBindingsService/CreateRoleBinding`,
      {
        parent: group.uid,
        roleBinding: { identityUid: identity.uid, roleUid: roles.roles[0]?.uid },
      },
    );
    expect(binding.role.name).toBe("viewer");
    expect(
      (
        await rpc<{ roleBindings: unknown[] }>(`${IAM}.RoleBindingsService/ListRoleBindings`, {
          uidp: { childrenOf: group.uid },
        })
      ).roleBindings,
    ).toHaveLength(1);

    // The exchange: a workload token of the local issuer, sent as the bearer token.
    const minted = await fetch(`${ready.issuerUrl}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ subject: "grpcurl-subject" }),
    });
    const workload = ((await minted.json()) as { token: string }).token;
    const exchanged = await rpc<{ token: string }>(
      "chainguard.platform.oidc.SecurityTokenService/Exchange",
      { aud: [ready.baseUrl], identity: identity.uid },
      workload,
    );
    expect(exchanged.token).toMatch(/^ey/);
    expect(await rpc(`${IAM}.GroupsService/GetGroup`, { uid: group.uid }, exchanged.token)).toMatchObject({
      uid: group.uid,
    });

    // One error: the group still has children; grpcurl decodes grpc-status-details-bin.
    const busy = await callMethod(`${IAM}.GroupsService/DeleteGroup`, { uid: group.uid });
    expect(busy.code).not.toBe(0);
    const status = statusOf(busy);
    expect(status.code).toBe(9);
    expect(status.message).toMatch(/^Precondition failed: /);
    expect(status.details.map((d) => d["@type"])).toEqual([
      "type.googleapis.com/google.rpc.ErrorInfo",
      "type.googleapis.com/google.rpc.PreconditionFailure",
      "type.googleapis.com/google.rpc.RequestInfo",
    ]);
    const violations = (status.details[1] as { violations: { type: string; subject: string }[] }).violations;
    expect(violations.map((v) => [v.type, v.subject])).toEqual([
      ["RESOURCE_NOT_EMPTY", identity.uid],
      ["RESOURCE_NOT_EMPTY", binding.uid],
    ]);

    await rpc(`${IAM}.RoleBindingsService/DeleteRoleBinding`, { uid: binding.uid });
    await rpc(`${IAM}.IdentitiesService/DeleteIdentity`, { uid: identity.uid });
    await rpc(`${IAM}.GroupsService/DeleteGroup`, { uid: group.uid });
    const gone = await callMethod(`${IAM}.GroupsService/GetGroup`, { uid: group.uid });
    expect(statusOf(gone)).toMatchObject({ code: 5 });
  });
});
