import * as grpc from "@grpc/grpc-js";
import type { PluginInfo } from "./grpc-server.js";
import { RESOURCE_PROVIDER_SERVICE, resourceProviderService } from "./grpc-server.js";
import { NativeProvider } from "./native-provider.js";

/**
 * A running plugin: the port the engine is told, and how to stop it.
 *
 * @example
 * const plugin = await serve(info);
 * console.log(plugin.port);
 * await plugin.close();
 */
export interface RunningPlugin {
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the ResourceProvider gRPC server on a free loopback port.
 *
 * @example
 * const { port } = await serve({ version: "0.1.0", schema });
 * process.stdout.write(`${port}\n`); // how the engine learns where the plugin listens
 */
export async function serve(info: PluginInfo): Promise<RunningPlugin> {
  const server = new grpc.Server({
    // Schemas and org-sized property maps exceed gRPC's 4 MB default, as they do for other providers.
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
  });
  // The tokens of the schema it serves: what the engine and the SDKs were told, nothing to compute.
  const { resources } = JSON.parse(info.schema) as { resources: Record<string, unknown> };
  const provider = new NativeProvider(Object.keys(resources));
  server.addService(RESOURCE_PROVIDER_SERVICE, resourceProviderService(provider, info));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return {
    port,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
