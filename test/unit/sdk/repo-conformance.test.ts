// Conformance of the sdk's Repo with spec §2 (uid, name, createTime) and the published v2beta1
// message (chainguard-dev/sdk, proto/chainguard/platform/registry/v2/repos.proto:182-245), as
// the gateway writes it (grpc-gateway v2 + protojson EmitUnpopulated).
import { describe, expect, it } from "vitest";
import { RepoSchema } from "../../../sdk/index.js";
import { PUBLISHED } from "../../wire-facts.js";

// The sdk reads every published field, `sync_config` under its snake_case json_name (repos.proto:230).
const READ_FIELDS = PUBLISHED.Repo.fields;

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
    expect(r).toEqual({
      ...FULL,
      // "" and null read as absent, as everywhere.
      sync_config: { source: `${UID}/0000000000000001`, uniqueTags: false, gracePeriod: false },
      customOverlay: undefined,
    });
    expect(Object.keys(r).sort(), PUBLISHED.Repo.source).toEqual([...READ_FIELDS].sort());
  });

  it("reads sync_config by its wire name only: a camelCase syncConfig is not the published field", () => {
    const base = { uid: UID, name: "a", createTime: "2026-11-21T10:00:00Z" };
    expect(
      RepoSchema.parse({ ...base, sync_config: { source: UID, amazon: "ecr/x" } }).sync_config,
    ).toMatchObject({
      source: UID,
      amazon: "ecr/x",
    });
    expect(RepoSchema.parse({ ...base, syncConfig: { source: UID } }).sync_config).toBeUndefined();
  });

  it("reads a custom overlay with its contents, maps and accounts", () => {
    const r = RepoSchema.parse({
      uid: UID,
      name: "a",
      createTime: "2026-11-21T10:00:00Z",
      customOverlay: { contents: { packages: ["curl"] }, environment: { TZ: "UTC" }, annotations: null },
    });
    expect(r.customOverlay).toEqual({
      contents: { packages: ["curl"], runtimeRepositories: [], runtimeKeyring: [] },
      environment: { TZ: "UTC" },
      annotations: {},
    });
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
