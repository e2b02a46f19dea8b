import { clientFor, resolveSettings } from "pulumi-irv/config";
import type { KnownRole } from "pulumi-irv/sdk";
import type { EngineContext } from "./engine-context.js";
import { stackConfig } from "./engine-context.js";

/**
 * The roles the stack's organization has (built-in and custom) with their capabilities, read from
 * the API with the stack's own settings — its `irv:*` config, then the `IRV_*` environment, as the
 * provider and `pulumi-irv access-review` read them — so that the gate knows a new binding's role
 * (looked up by name in the program, so known to the preview only by uid) without a `roles` setting.
 * Rejects with one line saying why, holding no credential.
 *
 * @example
 * const roles = await rolesOfStack(engineContext(), "dev");
 */
export async function rolesOfStack(ctx: EngineContext, stack: string): Promise<KnownRole[]> {
  const config = stackConfig(ctx, stack);
  const client = clientFor(resolveSettings((key) => config[key]));
  return (await client.roles.collect()).map((r) => ({
    uid: r.uid,
    name: r.name,
    capabilities: r.capabilities,
  }));
}
