import type * as pulumi from "@pulumi/pulumi";
import type { ResourceType } from "./resource-types.js";
import { RESOURCE_TYPES } from "./resource-types.js";

/**
 * The provider object serialized into every resource's state. It holds a single `configure`
 * (which the dynamic-provider host calls right after loading it) that installs the real methods
 * from the installed package. So the serialized text is a few hundred bytes, holds no path, no
 * credential and no implementation, and is the same in every version of the package: upgrading
 * changes no diff, and old state runs the new code.
 *
 * @example
 * new pulumi.dynamic.Resource(providerStub("Group"), name, props, opts, "irv", "Group");
 */
export function providerStub(type: StubType): pulumi.dynamic.ResourceProvider {
  const stub = {
    configure(req: unknown) {
      return require("pulumi-irv/internal/runtime").install(this, type, req);
    },
  };
  // `create` and the other methods exist once configure has run (the host always calls it first).
  return stub as unknown as pulumi.dynamic.ResourceProvider;
}

/**
 * The resource types pulumi-irv serves (the `<type>` of `pulumi-nodejs:dynamic/irv:<type>`).
 *
 * @example
 * const type: StubType = "Group";
 */
export type StubType = ResourceType;

// One stub object per type, made once: the SDK caches serialization per provider object.
const STUBS = Object.fromEntries(RESOURCE_TYPES.map((t) => [t, providerStub(t)])) as Record<
  StubType,
  pulumi.dynamic.ResourceProvider
>;

/**
 * The shared stub of a resource type.
 *
 * @example
 * super(stubFor("Group"), name, props, opts, "irv", "Group");
 */
export function stubFor(type: StubType): pulumi.dynamic.ResourceProvider {
  return STUBS[type];
}

/**
 * Whether `type` is one of the resource types pulumi-irv serves.
 *
 * @example
 * if (!isStubType(type)) throw new Error(`no resource type ${type}`);
 */
export function isStubType(type: string): type is StubType {
  return Object.hasOwn(STUBS, type);
}
