// Workload identity against the emulator, as a CI pipeline has it: an identity whose claimMatch is
// the emulator's local OIDC issuer and a subject, bound to a role in the organization (made with the
// admin token first), and a workload token minted by that issuer in a file the stack points at.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ConfigValue } from "../harness/index.js";
import type { TestEmulator } from "./irv-emulator.js";

/** An identity a stack can assume, and the stack config that assumes it. */
export interface WorkloadIdentity {
  identityUid: string;
  /** The OIDC token of the workload (what `irv:identityTokenFile` holds). */
  workloadToken: string;
  tokenFile: string;
  /** irv:baseUrl, irv:authUrl, irv:identity, irv:identityTokenFile — and no irv:token. */
  config: Record<string, ConfigValue>;
}

/**
 * Creates identity `name` (default `deployer`) in the organization (claimMatch: the local issuer and
 * `subject`) and binds it to `role` (default `owner`) there (an identity can only be bound in its own
 * group or below). Returns its uid.
 *
 * @example
 * const uid = await pipelineIdentity(irv, { subject: "repo:acme/infra:ref:refs/heads/main" });
 */
export async function pipelineIdentity(
  irv: TestEmulator,
  options: { subject: string; role?: string; name?: string },
): Promise<string> {
  const { emulator, admin } = irv;
  const identity = await admin.identities.create(emulator.orgUid, {
    name: options.name ?? "deployer",
    claimMatch: { issuer: emulator.issuerUrl, subject: options.subject },
  });
  const role = (await admin.roles.list({ name: options.role ?? "owner" })).items[0];
  if (!role) throw new Error(`no role named ${options.role ?? "owner"}`);
  await admin.roleBindings.create(emulator.orgUid, { identityUid: identity.uid, roleUid: role.uid });
  return identity.uid;
}

/**
 * {@link pipelineIdentity}, plus its workload token minted into `<dir>/oidc-token` and the stack config
 * that uses it.
 *
 * @example
 * const wi = await workloadIdentity(irv, { subject: "repo:acme/infra:ref:refs/heads/main", dir });
 * const stack = await createStack({ program, config: { ...wi.config, orgUid } });
 */
export async function workloadIdentity(
  irv: TestEmulator,
  options: { subject: string; dir: string; role?: string; name?: string },
): Promise<WorkloadIdentity> {
  const { emulator } = irv;
  const identityUid = await pipelineIdentity(irv, options);
  const token = await emulator.mintIdentityToken({ subject: options.subject });
  const tokenFile = path.join(options.dir, "oidc-token");
  writeFileSync(tokenFile, token, { mode: 0o600 });
  return {
    identityUid,
    workloadToken: token,
    tokenFile,
    config: {
      "irv:baseUrl": emulator.baseUrl,
      "irv:authUrl": emulator.authUrl,
      "irv:identity": identityUid,
      "irv:identityTokenFile": tokenFile,
    },
  };
}
