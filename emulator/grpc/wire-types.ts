import type { DescFile, DescMessage, DescService } from "@bufbuild/protobuf";
import { createRegistry } from "@bufbuild/protobuf";
import type { GenFile } from "@bufbuild/protobuf/codegenv2";
import { EventAttributes_Audience, events, file_annotations_events } from "./gen/annotations/events_pb.js";
import { file_capabilities_capabilities } from "./gen/capabilities/capabilities_pb.js";
import { file_chainguard_platform_events_v2_subscriptions } from "./gen/chainguard/platform/events/v2/subscriptions_pb.js";
import { file_chainguard_platform_events_v2beta1_subscriptions } from "./gen/chainguard/platform/events/v2beta1/subscriptions_pb.js";
import { file_chainguard_platform_iam_v2_account_associations } from "./gen/chainguard/platform/iam/v2/account_associations_pb.js";
import { file_chainguard_platform_iam_v2_external_group_role_mappings } from "./gen/chainguard/platform/iam/v2/external_group_role_mappings_pb.js";
import { file_chainguard_platform_iam_v2_group_invites } from "./gen/chainguard/platform/iam/v2/group_invites_pb.js";
import { file_chainguard_platform_iam_v2_groups } from "./gen/chainguard/platform/iam/v2/groups_pb.js";
import { file_chainguard_platform_iam_v2_identities } from "./gen/chainguard/platform/iam/v2/identities_pb.js";
import { file_chainguard_platform_iam_v2_identity_providers } from "./gen/chainguard/platform/iam/v2/identity_providers_pb.js";
import { file_chainguard_platform_iam_v2_role_bindings } from "./gen/chainguard/platform/iam/v2/role_bindings_pb.js";
import { file_chainguard_platform_iam_v2_roles } from "./gen/chainguard/platform/iam/v2/roles_pb.js";
import { file_chainguard_platform_iam_v2beta1_account_associations } from "./gen/chainguard/platform/iam/v2beta1/account_associations_pb.js";
import { file_chainguard_platform_iam_v2beta1_external_group_role_mappings } from "./gen/chainguard/platform/iam/v2beta1/external_group_role_mappings_pb.js";
import { file_chainguard_platform_iam_v2beta1_group_invites } from "./gen/chainguard/platform/iam/v2beta1/group_invites_pb.js";
import { file_chainguard_platform_iam_v2beta1_groups } from "./gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import { file_chainguard_platform_iam_v2beta1_identities } from "./gen/chainguard/platform/iam/v2beta1/identities_pb.js";
import { file_chainguard_platform_iam_v2beta1_identity_providers } from "./gen/chainguard/platform/iam/v2beta1/identity_providers_pb.js";
import { file_chainguard_platform_iam_v2beta1_role_bindings } from "./gen/chainguard/platform/iam/v2beta1/role_bindings_pb.js";
import { file_chainguard_platform_iam_v2beta1_roles } from "./gen/chainguard/platform/iam/v2beta1/roles_pb.js";
import { file_chainguard_platform_registry_v2_repos } from "./gen/chainguard/platform/registry/v2/repos_pb.js";
import { file_chainguard_platform_registry_v2_tags } from "./gen/chainguard/platform/registry/v2/tags_pb.js";
import { file_chainguard_platform_registry_v2beta1_overlay_bindings } from "./gen/chainguard/platform/registry/v2beta1/overlay_bindings_pb.js";
import { file_chainguard_platform_registry_v2beta1_overlays } from "./gen/chainguard/platform/registry/v2beta1/overlays_pb.js";
import { file_chainguard_platform_registry_v2beta1_repos } from "./gen/chainguard/platform/registry/v2beta1/repos_pb.js";
import { file_chainguard_platform_registry_v2beta1_tags } from "./gen/chainguard/platform/registry/v2beta1/tags_pb.js";
import { file_chainguard_platform_vulnerabilities_v2_advisories } from "./gen/chainguard/platform/vulnerabilities/v2/advisories_pb.js";
import { file_chainguard_platform_vulnerabilities_v2beta1_advisories } from "./gen/chainguard/platform/vulnerabilities/v2beta1/advisories_pb.js";
import { file_google_rpc_error_details } from "./gen/google/rpc/error_details_pb.js";
import { file_google_rpc_status } from "./gen/google/rpc/status_pb.js";
import { file_grpc_reflection_v1_reflection } from "./gen/grpc/reflection/v1/reflection_pb.js";
import { file_grpc_reflection_v1alpha_reflection } from "./gen/grpc/reflection/v1alpha/reflection_pb.js";
import { file_platform_oidc_v1_oidc_platform } from "./gen/platform/oidc/v1/oidc.platform_pb.js";

/**
 * The files of the contract's services (generated from `proto/`), v2beta1 then the GA copies (v2),
 * in the order reflection lists them.
 *
 * @example
 * API_FILES.flatMap((f) => f.services).map((s) => s.typeName);
 */
export const API_FILES: readonly GenFile[] = [
  file_chainguard_platform_iam_v2beta1_groups,
  file_chainguard_platform_iam_v2beta1_identities,
  file_chainguard_platform_iam_v2beta1_roles,
  file_chainguard_platform_iam_v2beta1_role_bindings,
  file_chainguard_platform_iam_v2beta1_identity_providers,
  file_chainguard_platform_iam_v2beta1_account_associations,
  file_chainguard_platform_iam_v2beta1_group_invites,
  file_chainguard_platform_registry_v2beta1_repos,
  file_chainguard_platform_registry_v2beta1_tags,
  file_chainguard_platform_vulnerabilities_v2beta1_advisories,
  file_chainguard_platform_iam_v2beta1_external_group_role_mappings,
  file_chainguard_platform_registry_v2beta1_overlays,
  file_chainguard_platform_registry_v2beta1_overlay_bindings,
  file_chainguard_platform_events_v2beta1_subscriptions,
  file_chainguard_platform_iam_v2_groups,
  file_chainguard_platform_iam_v2_identities,
  file_chainguard_platform_iam_v2_roles,
  file_chainguard_platform_iam_v2_role_bindings,
  file_chainguard_platform_iam_v2_identity_providers,
  file_chainguard_platform_iam_v2_account_associations,
  file_chainguard_platform_iam_v2_group_invites,
  file_chainguard_platform_registry_v2_repos,
  file_chainguard_platform_registry_v2_tags,
  file_chainguard_platform_vulnerabilities_v2_advisories,
  file_chainguard_platform_iam_v2_external_group_role_mappings,
  file_chainguard_platform_events_v2_subscriptions,
  file_platform_oidc_v1_oidc_platform,
];

/**
 * Every file the emulator serves over gRPC, with their imports, by file name: what reflection
 * answers from.
 *
 * @example
 * WIRE_FILES.get("google/protobuf/timestamp.proto");
 */
export const WIRE_FILES: ReadonlyMap<string, DescFile> = new Map(
  [
    ...API_FILES,
    file_annotations_events,
    file_capabilities_capabilities,
    file_google_rpc_status,
    file_google_rpc_error_details,
    file_grpc_reflection_v1_reflection,
    file_grpc_reflection_v1alpha_reflection,
  ]
    .flatMap(withImports)
    .map((f) => [f.proto.name, f]),
);

/**
 * The messages, enums and services of {@link WIRE_FILES}, by full name.
 *
 * @example
 * WIRE_REGISTRY.getMessage("chainguard.platform.iam.v2beta1.Group");
 */
export const WIRE_REGISTRY = createRegistry(...WIRE_FILES.values());

function withImports(file: DescFile): DescFile[] {
  return [file, ...file.dependencies.flatMap(withImports)];
}

/**
 * The error detail messages by full name (`google.rpc.BadRequest`), to pack an error's details.
 *
 * @example
 * DETAIL_TYPES.get("google.rpc.ErrorInfo");
 */
export const DETAIL_TYPES: ReadonlyMap<string, DescMessage> = new Map(
  file_google_rpc_error_details.messages.map((m) => [m.typeName, m]),
);

/**
 * The contract's services (the IAM services, the registry's, subscriptions, advisories, at v2beta1
 * and v2, and the token exchange).
 *
 * @example
 * API_SERVICES.map((s) => s.typeName); // ["chainguard.platform.iam.v2beta1.GroupsService", …]
 */
export const API_SERVICES: readonly DescService[] = API_FILES.flatMap((f) => f.services);

/**
 * The method option `chainguard.annotations.events` of the published definitions: the CloudEvent a
 * write rpc emits (`type`, `extensions`, `audience`). The emulator's deliveries read it from the
 * descriptors above.
 *
 * @example
 * getOption(method, EVENTS_OPTION).type; // "dev.chainguard.api.iam.group.created.v1"
 */
export const EVENTS_OPTION = events;

/**
 * The audiences of {@link EVENTS_OPTION}: only `CUSTOMER` events leave the platform.
 *
 * @example
 * getOption(method, EVENTS_OPTION).audience === EventAudience.CUSTOMER;
 */
export const EventAudience = EventAttributes_Audience;
