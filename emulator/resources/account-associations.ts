import { ACCOUNT_PROVIDERS, GitHub } from "pulumi-irv/sdk";
import type { KindHooks } from "./kind-context.js";

/**
 * Account associations: one per group, whose uid is the group's uid (published
 * `iam/account_associations.proto:166-167`; the kind rules make the uid and refuse a second
 * create). Answers carry every provider block, an unset one as `null`, and an unset `description` as
 * `""` (grpc-gateway writes unset fields so, protojson `EmitUnpopulated`).
 *
 * @example
 * KIND_RULES.accountAssociations.hooks === ACCOUNT_ASSOCIATIONS_HOOKS; // true
 */
export const ACCOUNT_ASSOCIATIONS_HOOKS: KindHooks = {
  // An update body is stored as sent, once valid: int64 ids written as numbers are kept as protojson
  // writes them (decimal strings), as a create's parsed body already is.
  beforeUpdate(_ctx, u) {
    const parsed = GitHub.safeParse(u.next.github);
    if (parsed.success) u.next.github = parsed.data;
  },
  output: (_ctx, _caller, data) => {
    const { uid, name, description, createTime, updateTime, ...rest } = JSON.parse(data) as Record<
      string,
      unknown
    >;
    const blocks = Object.fromEntries(ACCOUNT_PROVIDERS.map((p) => [p, rest[p] ?? null]));
    return JSON.stringify({
      uid,
      name,
      // An unset string is "" (protojson EmitUnpopulated; account_associations.proto:176).
      description: description ?? "",
      ...blocks,
      createTime,
      updateTime,
    });
  },
};
