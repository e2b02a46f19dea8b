// Each write rpc of proto/ carries the events option the service publishes for it (type, extensions,
// audience), read from the generated descriptors as the emulator's webhook deliveries read it; an rpc
// that reads never carries one. The expected values are the published ones (chainguard-dev/sdk,
// proto/chainguard/platform/**/*.proto, `option (chainguard.annotations.events)`), v2 as v2beta1.
import type { DescMethod } from "@bufbuild/protobuf";
import { getOption, hasOption } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { EventAttributes_Audience, events } from "../../../emulator/grpc/gen/annotations/events_pb.js";
import { WIRE_REGISTRY } from "../../../emulator/grpc/index.js";

const REGISTRY = "dev.chainguard.api.platform.registry";
const MAPPINGS = "dev.chainguard.api.iam.external_group_role_mappings";
const GROUP = ["group"];
const IDP = ["group", "identityprovider"];

// rpc (service-relative, package prefix added below) → [type, extensions]
const PUBLISHED: Record<string, [string, string[]]> = {
  "registry.ReposService.CreateRepo": [`${REGISTRY}.repo.created.v1`, GROUP],
  "registry.ReposService.UpdateRepo": [`${REGISTRY}.repo.updated.v1`, GROUP],
  "registry.ReposService.DeleteRepo": [`${REGISTRY}.repo.deleted.v1`, GROUP],
  "registry.ReposService.UpdateRepoReadme": [`${REGISTRY}.repo.updated.v1`, GROUP],
  "registry.TagsService.CreateTag": [`${REGISTRY}.tag.created.v1`, GROUP],
  "registry.TagsService.DeleteTag": [`${REGISTRY}.tag.deleted.v1`, GROUP],
  "events.SubscriptionsService.CreateSubscription": [
    "dev.chainguard.api.events.subscription.created.v1",
    GROUP,
  ],
  "events.SubscriptionsService.DeleteSubscription": [
    "dev.chainguard.api.events.subscription.deleted.v1",
    GROUP,
  ],
  "iam.ExternalGroupRoleMappingsService.CreateExternalGroupRoleMapping": [`${MAPPINGS}.created.v1`, IDP],
  "iam.ExternalGroupRoleMappingsService.DeleteExternalGroupRoleMapping": [`${MAPPINGS}.deleted.v1`, IDP],
  "iam.ExternalGroupRoleMappingsService.BatchDeleteExternalGroupRoleMappings": [
    `${MAPPINGS}.deleted.batch.v1`,
    IDP,
  ],
};
const BETA_ONLY: Record<string, [string, string[]]> = {
  "registry.OverlaysService.CreateOverlay": [`${REGISTRY}.overlay.created.v1`, GROUP],
  "registry.OverlaysService.DeleteOverlay": [`${REGISTRY}.overlay.deleted.v1`, GROUP],
  "registry.OverlayBindingsService.CreateOverlayBinding": [`${REGISTRY}.overlay_binding.created.v1`, GROUP],
  "registry.OverlayBindingsService.DeleteOverlayBinding": [`${REGISTRY}.overlay_binding.deleted.v1`, GROUP],
};

function method(fullName: string): DescMethod {
  const at = fullName.lastIndexOf(".");
  const service = WIRE_REGISTRY.getService(fullName.slice(0, at));
  const m = service?.methods.find((x) => x.name === fullName.slice(at + 1));
  if (m === undefined) throw new Error(`no rpc ${fullName} in proto/`);
  return m;
}

function expected(): [string, [string, string[]]][] {
  const qualify = (version: string, table: Record<string, [string, string[]]>) =>
    Object.entries(table).map(([k, v]) => {
      const [domain, ...rest] = k.split(".");
      return [`chainguard.platform.${domain}.${version}.${rest.join(".")}`, v] as [
        string,
        [string, string[]],
      ];
    });
  return [...qualify("v2beta1", PUBLISHED), ...qualify("v2", PUBLISHED), ...qualify("v2beta1", BETA_ONLY)];
}

describe("the events option of the write rpcs", () => {
  it.each(expected())("%s emits the published event", (rpc, [type, extensions]) => {
    const m = method(rpc);
    expect(hasOption(m, events), `${rpc} has no events option`).toBe(true);
    const attrs = getOption(m, events);
    expect({ type: attrs.type, extensions: attrs.extensions, audience: attrs.audience }).toEqual({
      type,
      extensions,
      audience: EventAttributes_Audience.CUSTOMER,
    });
  });

  it("no Get or List rpc carries one", () => {
    const readers = [...expected()].map(([rpc]) => rpc.slice(0, rpc.lastIndexOf(".")));
    const reads = [...new Set(readers)]
      .flatMap((s) => WIRE_REGISTRY.getService(s)?.methods ?? [])
      .filter((m) => /^(Get|List)/.test(m.name));
    expect(reads.length).toBeGreaterThan(10);
    expect(reads.filter((m) => hasOption(m, events)).map((m) => m.name)).toEqual([]);
  });
});
