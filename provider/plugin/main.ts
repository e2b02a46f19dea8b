import { readFileSync } from "node:fs";
import { serve } from "./serve.js";

/**
 * The entry of `pulumi-resource-irv`: serves the plugin and prints its port as the first line of
 * stdout, which is how the engine (which started the process, passing its own address) finds it.
 * The version the plugin reports is the schema's.
 *
 * @example
 * await main(new URL("./schema.json", import.meta.url));
 */
export async function main(schemaFile: URL): Promise<void> {
  const schema = readFileSync(schemaFile, "utf8");
  const { version } = JSON.parse(schema) as { version: string };
  const plugin = await serve({ version, schema });
  // The engine stops a plugin with SIGINT/SIGTERM or by closing stdin; any of them ends the server.
  const stop = () => void plugin.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.stdout.write(`${plugin.port}\n`);
}
