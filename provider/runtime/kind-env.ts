import type { IrvSettings } from "../config/index.js";
import type { KindEnv } from "./kind-definition.js";
import { DEFAULT_REGISTRY_HOST } from "./registry-host.js";

/**
 * The kinds' environment from the provider's settings: the registry host (default the service's)
 * and the provider machine's clock.
 *
 * @example
 * makeProvider(kind, client, explain, kindEnvOf(settings));
 */
export function kindEnvOf(settings: IrvSettings): KindEnv {
  return { registryHost: settings.registryHost ?? DEFAULT_REGISTRY_HOST, now: () => Date.now() };
}
