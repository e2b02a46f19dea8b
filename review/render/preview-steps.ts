import { z } from "zod";
import type { StackResource } from "../access/index.js";
import { PREVIEW_UNKNOWN } from "../access/index.js";

const ResourceState = z.looseObject({
  urn: z.string(),
  type: z.string(),
  id: z.string().optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
  outputs: z.record(z.string(), z.unknown()).optional(),
  propertyDependencies: z.record(z.string(), z.array(z.string())).optional(),
});
type ResourceState = z.infer<typeof ResourceState>;

/**
 * The part of `pulumi preview --json` the review reads: its steps, each with the state before
 * (`oldState`) and the planned state (`newState`).
 *
 * @example
 * const digest = PreviewDigest.parse(JSON.parse(stdout));
 */
export const PreviewDigest = z.looseObject({
  steps: z
    .array(
      z.looseObject({
        op: z.string(),
        urn: z.string(),
        oldState: ResourceState.optional(),
        newState: ResourceState.optional(),
      }),
    )
    .default([]),
});
/**
 * @see PreviewDigest
 * @example
 * const d: PreviewDigest = PreviewDigest.parse(value);
 */
export type PreviewDigest = z.infer<typeof PreviewDigest>;

/**
 * A resource's state as the review reads it: inputs with the outputs over them (an output unknown
 * at preview does not hide a known input of the same name).
 *
 * @example
 * const r = stackResourceOf({ urn, type, inputs: { name: "a" }, outputs: { uid } });
 */
export function stackResourceOf(s: ResourceState): StackResource {
  const props: Record<string, unknown> = { ...s.inputs };
  for (const [k, v] of Object.entries(s.outputs ?? {}))
    if (v !== PREVIEW_UNKNOWN || !(k in props)) props[k] = v;
  return { urn: s.urn, type: s.type, id: s.id, props, propertyDependencies: s.propertyDependencies };
}

// Steps whose resource is gone from the planned state. A replacement's `delete-replaced` step is
// the old copy of a resource whose new copy another step of the same URN plans: it removes nothing.
const GONE = new Set(["delete", "discard", "read-discard"]);

/**
 * The stack before and after a preview. Before: the stack's `state` when given, else the
 * `oldState` of every step. After: the state before with every step applied (`newState` replaces,
 * a delete removes). `pulumi preview --json` lists unchanged resources only with `--show-sames`, so
 * without `state` a resource the preview does not touch is known only through references to it.
 *
 * @example
 * const { before, after } = sidesOfPreview(PreviewDigest.parse(JSON.parse(stdout)), stateResources);
 */
export function sidesOfPreview(
  digest: PreviewDigest,
  state?: readonly StackResource[],
): { before: StackResource[]; after: StackResource[] } {
  const before = new Map<string, StackResource>((state ?? []).map((r) => [r.urn, r]));
  if (state === undefined)
    for (const step of digest.steps)
      if (step.oldState !== undefined && !before.has(step.urn))
        before.set(step.urn, stackResourceOf(step.oldState));
  const after = new Map(before);
  for (const step of digest.steps) {
    if (GONE.has(step.op)) after.delete(step.urn);
    else if (step.op !== "delete-replaced" && step.newState !== undefined)
      after.set(step.urn, stackResourceOf(step.newState));
  }
  return { before: [...before.values()], after: [...after.values()] };
}
