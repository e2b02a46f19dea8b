import { clientFor, resolveSettings } from "pulumi-irv/config";
import type { KnownRole, LiveAccess, StackResource } from "pulumi-irv/review";
import { knownRolesOf, liveAccessOf } from "pulumi-irv/review";
import type { IrvClient } from "pulumi-irv/sdk";
import type { EngineContext } from "./engine-context.js";
import { stackConfig } from "./engine-context.js";

// One client per stack and CLI in the pack's process: the config is read once per preview.
const clients = new Map<string, IrvClient>();

/**
 * The API client of the stack's own settings — its `irv:*` config read through the `pulumi`
 * running the pack, then the `IRV_*` environment — as the provider and `pulumi-irv access-review`
 * make it. Throws one line saying why it could not, holding no credential.
 *
 * @example
 * const client = await stackClient(engineContext(), "dev");
 */
export async function stackClient(ctx: EngineContext, stack: string): Promise<IrvClient> {
  const key = JSON.stringify([ctx.cli, ctx.cwd, stack]);
  let client = clients.get(key);
  if (client === undefined) {
    const config = await stackConfig(ctx, stack);
    client = clientFor(resolveSettings((k) => config[k]));
    clients.set(key, client);
  }
  return client;
}

/**
 * The roles the stack's organization has (built-in and custom) with their capabilities, read with
 * {@link stackClient}: the gate then knows a new binding's role (looked up by name in the program,
 * so known to the preview only by uid) without a `roles` setting.
 *
 * @example
 * const roles = await rolesOfStack(engineContext(), "dev");
 */
export async function rolesOfStack(ctx: EngineContext, stack: string): Promise<KnownRole[]> {
  return knownRolesOf(await stackClient(ctx, stack));
}

/**
 * The bindings outside the stack where its resources are (`pulumi-irv access-review --live`'s
 * read), read with {@link stackClient}.
 *
 * @example
 * const live = await liveAccessOfStack(engineContext(), "dev", [...before, ...after]);
 */
export async function liveAccessOfStack(
  ctx: EngineContext,
  stack: string,
  resources: readonly StackResource[],
): Promise<LiveAccess> {
  return liveAccessOf(await stackClient(ctx, stack), resources);
}
