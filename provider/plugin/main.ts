import { readFileSync } from "node:fs";
import { serve } from "./serve.js";

/**
 * The entry of `pulumi-resource-irv`: the engine starts it with its own address as argument, reads
 * the port from the first line of stdout and talks gRPC to it until it kills the process.
 * `schema.json` and `plugin-info.json` (the version) sit beside the bundled script.
 *
 * @example
 * await main(new URL("./schema.json", import.meta.url));
 */
export async function main(schemaFile: URL, version: string): Promise<void> {
  const schema = readFileSync(schemaFile, "utf8");
  const { port } = await serve({ version, schema });
  process.stdout.write(`${port}\n`);
}
