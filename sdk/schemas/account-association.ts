import { z } from "zod";
import { Timestamp, Uid } from "./common.js";

const required = z.string().min(1, { message: "is required" });

/**
 * The cloud accounts a group is associated with: at least one of the providers is set.
 *
 * @example
 * ACCOUNT_PROVIDERS.filter((p) => association[p] !== undefined); // ["amazon", "github"]
 */
export const ACCOUNT_PROVIDERS = ["amazon", "google", "azure", "github", "chainguard"] as const;

const providers = {
  amazon: z
    .object({ account: z.string().regex(/^\d{12}$/, { message: "must be a 12-digit AWS account id" }) })
    .optional(),
  google: z
    .object({ projectId: required, projectNumber: z.string().regex(/^\d+$/, { message: "must be digits" }) })
    .optional(),
  azure: z.object({ tenantId: required, clientIds: z.record(z.string(), z.string()) }).optional(),
  github: z
    .object({ installations: z.array(z.looseObject({ id: z.union([z.string(), z.number()]) })) })
    .optional(),
  chainguard: z.object({ serviceBindings: z.record(z.string(), z.string()) }).optional(),
};

const atLeastOne = (a: Record<string, unknown>, ctx: z.RefinementCtx) => {
  if (ACCOUNT_PROVIDERS.every((p) => a[p] === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["amazon"],
      message: `at least one of ${ACCOUNT_PROVIDERS.join(", ")} is required`,
    });
  }
};

/**
 * The account associations of a group.
 *
 * @example
 * const a = AccountAssociations.parse(body);
 */
export const AccountAssociations = z.object({
  uid: Uid,
  name: z.string(),
  description: z.string().optional(),
  ...providers,
  createTime: Timestamp,
  updateTime: Timestamp,
});
/**
 * The account associations of a group.
 *
 * @example
 * const a: AccountAssociations = await client.accountAssociations.get(uid);
 */
export type AccountAssociations = z.infer<typeof AccountAssociations>;

/**
 * Body of `POST /iam/v2beta1/accountAssociations/<group_uid>`.
 *
 * @example
 * AccountAssociationsCreate.parse({ name: "prod", amazon: { account: "123456789012" } });
 */
export const AccountAssociationsCreate = z
  .object({ name: required, description: z.string().optional(), ...providers })
  .superRefine(atLeastOne);
/**
 * Body of an account associations create.
 *
 * @example
 * const body: AccountAssociationsCreate = { name: "prod", github: { installations: [{ id: 42 }] } };
 */
export type AccountAssociationsCreate = z.infer<typeof AccountAssociationsCreate>;

/**
 * The mutable fields of account associations, as PATCH paths (each provider as a whole).
 *
 * @example
 * await client.accountAssociations.update(uid, {}, { updateMask: ["azure"] }); // drops azure
 */
export const ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS = ["name", "description", ...ACCOUNT_PROVIDERS] as const;
