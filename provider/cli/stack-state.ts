import { z } from "zod";

/**
 * One resource of an exported Pulumi deployment, as far as the operations CLI reads it; every other
 * field is kept as it is, so a state written back loses nothing.
 *
 * @example
 * const r = StateResource.parse({ urn, type: "pulumi-nodejs:dynamic/irv:Group", inputs: {} });
 */
export const StateResource = z.looseObject({
  urn: z.string(),
  type: z.string(),
  id: z.string().optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
  outputs: z.record(z.string(), z.unknown()).optional(),
});
/**
 * @see StateResource
 * @example
 * const x: StateResource = StateResource.parse(value);
 */
export type StateResource = z.infer<typeof StateResource>;

/**
 * An operation the engine began and never saw finish (`pending_operations`).
 *
 * @example
 * PendingOperation.parse({ type: "creating", resource: { urn, type } });
 */
export const PendingOperation = z.looseObject({ type: z.string(), resource: StateResource });
/**
 * @see PendingOperation
 * @example
 * const x: PendingOperation = PendingOperation.parse(value);
 */
export type PendingOperation = z.infer<typeof PendingOperation>;

/**
 * The `deployment` of `pulumi stack export` (checkpoint version 3).
 *
 * @example
 * const d = Deployment.parse((await stack.exportStack()).deployment);
 */
export const Deployment = z.looseObject({
  resources: z.array(StateResource).optional(),
  pending_operations: z.array(PendingOperation).optional(),
});
/**
 * @see Deployment
 * @example
 * const x: Deployment = Deployment.parse(value);
 */
export type Deployment = z.infer<typeof Deployment>;

/**
 * A pending create the state does not record as a resource: the service may or may not have made it.
 *
 * @example
 * const open = unrecordedCreates(deployment);
 */
export function unrecordedCreates(d: Deployment): StateResource[] {
  // A later run may have created (and recorded) the resource of an old pending create: the pending
  // operation stays in the state all the same, but must not be adopted a second time.
  const recorded = new Set((d.resources ?? []).map((r) => r.urn));
  return (d.pending_operations ?? [])
    .filter((op) => op.type === "creating" && !recorded.has(op.resource.urn))
    .map((op) => op.resource);
}

/**
 * The deployment with `adopted` resources added and every pending create dropped — what
 * `pulumi stack import` then takes. (`pulumi refresh --import-pending-creates` looks like the tool,
 * but Pulumi CLI 3.259 drops such operations without adding the resource.)
 *
 * @example
 * await stack.importStack({ version: 3, deployment: withAdopted(d, [resource]) });
 */
export function withAdopted(d: Deployment, adopted: readonly StateResource[]): Deployment {
  return {
    ...d,
    resources: [...(d.resources ?? []), ...adopted],
    pending_operations: (d.pending_operations ?? []).filter((op) => op.type !== "creating"),
  };
}
