/**
 * `pulumi-irv`: Pulumi resources and data sources for the IRV v2beta1 API.
 *
 * @example
 * import * as irv from "pulumi-irv";
 * const team = new irv.iam.Group("team-a", { parentUid: orgUid });
 */

// First: an unsupported Node says so in one line before any dependency loads.
import "./node-version.js";

export * as events from "./events/index.js";
export * as iam from "./iam/index.js";
export * as registry from "./registry/index.js";
export type {
  Advisory,
  AdvisoryEvent,
  ByUid,
  ExternalGroupRoleMapping,
  Group,
  Identity,
  IdentityProvider,
  InputsOf,
  ListFilter,
  ListFilterInput,
  Overlay,
  OverlayBinding,
  Repo,
  Role,
  Subscription,
  Tag,
} from "./types/index.js";
export * as vulnerabilities from "./vulnerabilities/index.js";
