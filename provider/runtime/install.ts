import type * as pulumi from "@pulumi/pulumi";
import type { IrvSettings } from "../config/index.js";
import { clientFor, explainFailure, resolveSettings } from "../config/index.js";
import { makeProvider } from "./dynamic-provider.js";
import type { KindDefinition } from "./kind-definition.js";
import { groupKind } from "./kinds/group-kind.js";
import { identityKind } from "./kinds/identity-kind.js";
import { roleBindingKind } from "./kinds/role-binding-kind.js";

const KIND_DEFINITIONS: Record<KindDefinition["type"], KindDefinition> = {
  Group: groupKind,
  Identity: identityKind,
  RoleBinding: roleBindingKind,
};

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
  const kind = KIND_DEFINITIONS[type as KindDefinition["type"]];
  if (!kind)
    throw new Error(
      `pulumi-irv: unknown resource type ${JSON.stringify(type)}; is the installed pulumi-irv older than the program's?`,
    );
  const settings: IrvSettings = resolveSettings((k) => req?.config.get(k));
  // The client is made on first use so that `check` and `diff` work without credentials.
  Object.assign(
    target,
    makeProvider(
      kind,
      () => clientFor(settings),
      (e) => explainFailure(e, settings),
    ),
  );
}
