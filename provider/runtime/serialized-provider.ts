import { createRequire } from "node:module";
import type * as pulumi from "@pulumi/pulumi";
import { isStubType, stubFor } from "../stub/index.js";

const require = createRequire(import.meta.url);

/**
 * The serialized provider (`__provider`) of one of our resource types, as the SDK writes it into
 * state. Used where the engine does not hand it to the dynamic-provider host (the Read of an
 * `import` on Pulumi CLI 3.259; see scripts/dynamic-provider-preload.cjs).
 *
 * @example
 * const text = await serializedProvider("Group"); // "exports.handler = __f0; …"
 */
export async function serializedProvider(type: string): Promise<string> {
  if (!isStubType(type)) throw new Error(`pulumi-irv: no resource type ${JSON.stringify(type)}`);
  // Loaded here, not at the top: the provider process loads this module on every run and must not
  // pay for the whole SDK unless the preload asks for a stub. The public entry, not a private path.
  const { runtime } = require("@pulumi/pulumi") as typeof pulumi;
  const provider = stubFor(type);
  return (await runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}
