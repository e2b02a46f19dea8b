// A stack run the way a CI job runs it: no irv:* stack config and no stored credential, only the
// job's environment, against an emulator whose API tokens expire every few seconds; and an `up` slow
// enough to outlive several of those tokens.
import { expect } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "./irv-emulator.js";
import type { OrgTreeShape } from "./org-tree.js";
import { declared, inventory, orgTreeConfig } from "./org-tree.js";

/** The route the emulator's stats count token exchanges under. */
export const EXCHANGE = "GET /auth/sts/exchange";

/**
 * A chain of groups (fan-out 1, created one after the other) whose bindings' role comes from a data
 * source, so that the program exchanges a token too, at preview as well as at up.
 *
 * @example
 * const shape = ciJobShape("gha");
 */
export function ciJobShape(prefix: string): OrgTreeShape {
  return { groups: 6, identities: 6, bindings: 6, prefix, fanout: 1 };
}

/**
 * The environment of a CI job: `IRV_BASE_URL`, `IRV_AUTH_URL`, `IRV_IDENTITY` of the emulator and
 * identity, the CI system's variables `job`, and every other IRV credential setting or CI marker
 * blanked, so that nothing inherited from the machine running the tests (which may itself be a CI job)
 * is seen. The provider treats an empty variable as unset.
 *
 * @example
 * ciJobEnv(irv, identityUid, github.env);
 */
export function ciJobEnv(
  irv: TestEmulator,
  identity: string,
  job: Record<string, string>,
): Record<string, string> {
  const blank = [
    "IRV_TOKEN",
    "IRV_IDENTITY_TOKEN",
    "IRV_IDENTITY_TOKEN_FILE",
    "IRV_IDENTITY_TOKEN_SOURCE",
    "IRV_IDENTITY_TOKEN_AUDIENCE",
    "IRV_IDENTITY_TOKEN_VARIABLE",
    "IRV_ID_TOKEN",
    "GITHUB_ACTIONS",
    "ACTIONS_ID_TOKEN_REQUEST_URL",
    "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
    "GITLAB_CI",
  ];
  return {
    ...Object.fromEntries(blank.map((k) => [k, ""])),
    IRV_BASE_URL: irv.emulator.baseUrl,
    IRV_AUTH_URL: irv.emulator.authUrl,
    IRV_IDENTITY: identity,
    ...job,
  };
}

/**
 * A stack of the org-tree program of `shape` whose only IRV settings are the CI job's environment.
 *
 * @example
 * const stack = await ciJobStack(irv, ciJobShape("gha"), identityUid, github.env);
 */
export function ciJobStack(
  irv: TestEmulator,
  shape: OrgTreeShape,
  identity: string,
  job: Record<string, string>,
): Promise<TestStack> {
  return createStack({
    program: fixtureDir("org-tree-program"),
    config: { orgUid: irv.emulator.orgUid, ...orgTreeConfig(shape) },
    env: ciJobEnv(irv, identity, job),
  });
}

/**
 * `pulumi up` with 250 ms added to every API and STS request, so that the run outlives several
 * short-lived tokens; checks that it created exactly what `shape` declares and returns the requests
 * the emulator counted during the run.
 *
 * @example
 * const requests = await slowUp(irv, stack, shape);
 * expect(requests[EXCHANGE]).toBeGreaterThanOrEqual(4);
 */
export async function slowUp(
  irv: TestEmulator,
  stack: TestStack,
  shape: OrgTreeShape,
): Promise<Record<string, number>> {
  irv.emulator.setFaults("latency=250");
  await irv.resetStats();
  try {
    const up = await stack.up();
    expect(diagnostics(up.events, "error")).toEqual([]);
  } finally {
    irv.emulator.setFaults("none");
  }
  const { requests } = await irv.stats();
  expect(await inventory(irv.admin, irv.emulator.orgUid, shape.prefix)).toEqual(declared(shape));
  return requests;
}
