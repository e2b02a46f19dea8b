// The entry of the self-contained `pulumi-resource-irv` (a Node single executable application,
// scripts/plugin-executable.ts): the schema is the schema.json beside the executable, since the
// executable's own path is the only place it knows. CommonJS-safe: no top-level await.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "./main.js";

main(pathToFileURL(path.join(path.dirname(process.execPath), "schema.json"))).catch((err: unknown) => {
  console.error(`pulumi-resource-irv: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
