// Conformance of the sdk's Repo with spec §2 (uid, name, createTime) and the published v2beta1
// message (chainguard-dev/sdk, proto/chainguard/platform/registry/v2beta1/repos.proto:182-245), as
// the gateway writes it (grpc-gateway v2 + protojson EmitUnpopulated).
import { describe, expect, it } from "vitest";
import { RepoSchema } from "../../../sdk/index.js";
import { PUBLISHED } from "../../wire-facts.js";

// The published fields the sdk reads: all but `sync_config` (repos.proto:230, its json_name is
// snake_case) and `customOverlay` (:238), which are not read (ignored when present).
const READ_FIELDS = PUBLISHED.Repo.fields.filter((f) => f !== "sync_config" && f !== "customOverlay");

const UID = "0123456789abcdef0123456789abcdef01234567/0123456789abcdef";
const FULL = {
  uid: UID,
  name: "nginx",
  description: "A minimal nginx image",
  catalogTier: "CATALOG_TIER_APPLICATION",
  bundles: ["web"],
  aliases: ["nginx-fips"],
  activeTags: ["latest", "1.27"],
  sync_config: {
    source: `${UID}/0000000000000001`,
    uniqueTags: false,
    expirationTime: null,
    google: "",
    amazon: "",
    azure: "",
    apkoOverlay: "",
    gracePeriod: false,
  },
  customOverlay: null,
  createTime: "2026-11-21T10:00:00Z",
  updateTime: "2026-11-22T10:00:00.5Z",
};

describe("Repo as the published v2beta1 message", () => {
  it("reads a fully populated repo, field for field, and nothing else", () => {
    const r = RepoSchema.parse(FULL);
    const { sync_config: _s, customOverlay: _c, ...expected } = FULL;
    expect(r).toEqual(expected);
    expect(Object.keys(r).sort(), PUBLISHED.Repo.source).toEqual([...READ_FIELDS].sort());
  });

  it("reads an unset repo: '' description as absent, [] lists, the zero tier, a null updateTime", () => {
    const r = RepoSchema.parse({
      uid: UID,
      name: "app",
      description: "",
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
      bundles: [],
      aliases: [],
      activeTags: [],
      sync_config: null,
      customOverlay: null,
      createTime: "2026-11-21T10:00:00Z",
      updateTime: null,
    });
    expect(r).toEqual({
      uid: UID,
      name: "app",
      description: undefined,
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
      bundles: [],
      aliases: [],
      activeTags: [],
      createTime: "2026-11-21T10:00:00Z",
      updateTime: undefined,
    });
  });

  it("reads the catalog tier by name, by number, and keeps a tier it does not know", () => {
    const tier = (catalogTier: unknown) =>
      RepoSchema.parse({ uid: UID, name: "a", createTime: "2026-11-21T10:00:00Z", catalogTier }).catalogTier;
    expect(tier(2)).toBe("CATALOG_TIER_BASE");
    expect(tier("CATALOG_TIER_FIPS")).toBe("CATALOG_TIER_FIPS");
    expect(tier("CATALOG_TIER_QUANTUM")).toBe("CATALOG_TIER_QUANTUM");
    expect(tier(undefined)).toBe("CATALOG_TIER_UNSPECIFIED");
  });

  it("keeps the spec's createTime required (spec §2 shows it on every repo)", () => {
    expect(RepoSchema.safeParse({ uid: UID, name: "a", createTime: null }).success).toBe(false);
  });
});
