// Issue 45, the pure parts of the new kinds: a custom overlay as the gateway answers it (every field,
// defaults for the unset ones), what counts as populated, and custom assembly per group through the
// group tree.
import { describe, expect, it } from "vitest";
import { customAssemblyEnabled, setCustomAssembly } from "../../../emulator/resources/custom-assembly.js";
import { customOverlayOf, populated, unpopulated } from "../../../emulator/resources/overlay-config.js";
import { Database, ResourceTable } from "../../../emulator/store/index.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";

describe("custom overlays", () => {
  it("are answered with every published field, unset lists [] and maps {}, unset messages null", () => {
    expect(customOverlayOf({ contents: { packages: ["curl"] } }, "customOverlay")).toEqual({
      contents: { packages: ["curl"], runtimeRepositories: [], runtimeKeyring: [] },
      environment: {},
      annotations: {},
      accounts: null,
      certificates: null,
    });
  });

  it("ignore what a read-back restates at its defaults, and refuse a reserved key naming it", () => {
    const readBack = {
      contents: null,
      environment: {},
      annotations: {},
      accounts: null,
      certificates: { additional: [], providers: [] },
    };
    expect(populated(readBack)).toEqual({});
    expect(unpopulated(readBack)).toBe(true);
    expect(() => customOverlayOf({ environment: { CHAINGUARD_MODE: "x" } }, "customOverlay")).toThrow(
      /customOverlay\.environment/,
    );
    expect(() => customOverlayOf("x", "customOverlay")).toThrow(/JSON object/);
  });
});

describe("custom assembly", () => {
  it("is on for the org by default; a group's setting holds for the groups below it unless they set their own", () => {
    const table = new ResourceTable(new Database(undefined));
    const team = `${ORG}/0123456789abcdef`;
    const sub = `${team}/fedcba9876543210`;
    expect(customAssemblyEnabled(table, sub)).toBe(true);
    setCustomAssembly(table, team, false);
    expect(customAssemblyEnabled(table, sub)).toBe(false);
    expect(customAssemblyEnabled(table, ORG)).toBe(true);
    setCustomAssembly(table, sub, true);
    expect(customAssemblyEnabled(table, sub)).toBe(true);
    setCustomAssembly(table, ORG, false);
    expect(customAssemblyEnabled(table, `${ORG}/1111111111111111`)).toBe(false);
  });
});
