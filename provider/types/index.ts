/**
 * The public shapes of `pulumi-irv`'s lookups: plain interfaces, free of zod, so the declarations
 * compile under the `pulumi new typescript` tsconfig.
 *
 * @example
 * import type { ListFilter, Role } from "../types/index.js";
 */
export type { ByUid } from "./by-uid.js";
export type { InputsOf, ListFilter, ListFilterInput } from "./list-filter.js";
export type {
  Advisory,
  AdvisoryEvent,
  ExternalGroupRoleMapping,
  Group,
  Identity,
  IdentityProvider,
  Overlay,
  OverlayBinding,
  Repo,
  Role,
  Subscription,
  Tag,
} from "./lookup-results.js";
