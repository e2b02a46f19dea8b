import type * as pulumi from "@pulumi/pulumi";
import type { IrvClient } from "../../sdk/index.js";
import type { IrvSettings } from "../config/index.js";
import { clientFor, explainFailure, resolveSettings } from "../config/index.js";
import { isStubType } from "../stub/index.js";
import { makeProvider } from "./dynamic-provider.js";
import { kindEnvOf } from "./kind-env.js";
import { KIND_DEFINITIONS } from "./kinds/index.js";

/**
 * Installs the provider methods of `type` on `target` (the deserialized stub) and resolves the
 * credentials from the stack config in `req` (then the environment). Called once per stub per
 * provider process, before any other method.
 *
 * @example
 * install(stub, "Identity", { config: { get: (k) => undefined } });
 */
export function install(
  target: Record<string, unknown>,
  type: string,
  req: pulumi.dynamic.ConfigureRequest | undefined,
): void {
  const kind = isStubType(type) ? KIND_DEFINITIONS[type] : undefined;
  if (!kind)
    throw new Error(
      `pulumi-irv: unknown resource type ${JSON.stringify(type)}; is the installed pulumi-irv older than the program's?`,
    );
  const settings: IrvSettings = resolveSettings((k) => req?.config.get(k));
  // The client is made on first use so that `check` and `diff` work without credentials, and kept:
  // looking it up again would serialize the settings on every operation.
  let client: IrvClient | undefined;
  Object.assign(
    target,
    makeProvider(
      kind,
      () => {
        client ??= clientFor(settings);
        return client;
      },
      (e) => explainFailure(e, settings),
      kindEnvOf(settings),
    ),
  );
}
