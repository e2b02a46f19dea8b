// What the running plugin loads: its own modules (the gRPC layer, the native provider and the kind
// table) and nothing of the TypeScript front end. This file imports only the module the plugin's
// entry serves, in a fresh process (vitest runs each file apart), and looks at what Node loaded.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { dataSourceTable } from "../../../../provider/data-sources/index.js";
import { serve } from "../../../../provider/plugin/serve.js";

const require = createRequire(import.meta.url);
const schema = readFileSync(new URL("../../../../provider/plugin/schema.json", import.meta.url), "utf8");

describe("the plugin's import graph", () => {
  it("does not load @pulumi/pulumi's root, its dynamic providers or its closure serializer", async () => {
    const plugin = await serve({ version: "0.0.0", schema });
    await plugin.close();
    const loaded = Object.keys(require.cache);
    expect(loaded).toContain(require.resolve("@pulumi/pulumi/proto/provider_grpc_pb.js"));
    expect(loaded).not.toContain(require.resolve("@pulumi/pulumi"));
    // The TypeScript classes import the root; the dynamic providers, the serializer and its parser too.
    expect(loaded).not.toContain(require.resolve("@pulumi/pulumi/dynamic/index.js"));
    expect(loaded).not.toContain(require.resolve("@pulumi/pulumi/runtime/closure/serializeClosure.js"));
    expect(loaded.filter((m) => m.includes("/node_modules/typescript/"))).toEqual([]);
  });

  it("still serves every function of the schema as an invoke", () => {
    const { functions } = JSON.parse(schema) as { functions: Record<string, unknown> };
    const served = [...dataSourceTable().keys()].map((name) => name.split(".").join(":"));
    expect(served.sort()).toEqual(Object.keys(functions).sort());
  });
});
