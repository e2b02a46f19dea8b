import { z } from "zod";
import type { StackResource } from "../../sdk/index.js";
import { PREVIEW_UNKNOWN } from "../../sdk/index.js";

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
 * The stack before and after a preview, from its steps: `oldState` of every step is the state
 * before; `newState` of every step that keeps the resource is the planned state. `pulumi preview
 * --json` lists unchanged resources as `same` steps, so both sides are whole.
 *
 * @example
 * const { before, after } = sidesOfPreview(PreviewDigest.parse(JSON.parse(stdout)));
 */
export function sidesOfPreview(digest: PreviewDigest): { before: StackResource[]; after: StackResource[] } {
  const before = new Map<string, StackResource>();
  const after = new Map<string, StackResource>();
  for (const step of digest.steps) {
    if (step.oldState !== undefined && !before.has(step.urn))
      before.set(step.urn, stackResourceOf(step.oldState));
    if (GONE.has(step.op)) after.delete(step.urn);
    else if (step.op !== "delete-replaced" && step.newState !== undefined)
      after.set(step.urn, stackResourceOf(step.newState));
  }
  return { before: [...before.values()], after: [...after.values()] };
}
