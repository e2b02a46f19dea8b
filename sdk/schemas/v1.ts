import { z } from "zod";

/**
 * The v1 list shape (`items`, `id`, `createdAt`, `updatedAt`), kept for migration: v1 paths stay
 * available next to v2 (spec §9).
 *
 * @example
 * const { items } = V1List.parse(await (await fetch(`${base}/iam/v1/groups`)).json());
 */
export const V1List = z.object({
  items: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      createdAt: z.string().optional(),
      updatedAt: z.string().optional(),
    }),
  ),
});
/**
 * A v1 list response.
 *
 * @example
 * const list: V1List = V1List.parse(body);
 * const ids = list.items.map((i) => i.id);
 */
export type V1List = z.infer<typeof V1List>;
