import { ACCOUNT_PROVIDERS } from "pulumi-irv/sdk";
import type { KindHooks } from "./kind-context.js";

/**
 * Account associations: one per group, whose uid is the group's uid (published
 * `iam/account_associations.proto:166-167`; the kind rules make the uid and refuse a second
 * create). Answers carry every provider block, an unset one as `null` (grpc-gateway writes unset
 * message fields so, protojson `EmitUnpopulated`).
 *
 * @example
 * KIND_RULES.accountAssociations.hooks === ACCOUNT_ASSOCIATIONS_HOOKS; // true
 */
export const ACCOUNT_ASSOCIATIONS_HOOKS: KindHooks = {
  output: (_ctx, _caller, row) => {
    const { uid, name, description, createTime, updateTime, ...rest } = JSON.parse(row.data) as Record<
      string,
      unknown
    >;
    const blocks = Object.fromEntries(ACCOUNT_PROVIDERS.map((p) => [p, rest[p] ?? null]));
    return JSON.stringify({
      uid,
      name,
      ...(description === undefined ? {} : { description }),
      ...blocks,
      createTime,
      updateTime,
    });
  },
};
