/**
 * The native resource plugin `pulumi-resource-irv`: Pulumi's ResourceProvider gRPC interface over the
 * kind table, for programs in every language (tokens `irv:<module>:<Type>`, invokes
 * `irv:<module>:<function>`), and the package schema made from the same table.
 *
 * @example
 * import { serve } from "./plugin/index.js";
 * const { port } = await serve({ version: "0.1.0", schema });
 */

export type { PluginInfo } from "./grpc-server.js";
export { RESOURCE_PROVIDER_SERVICE, resourceProviderService } from "./grpc-server.js";
export type { PartialCreate } from "./init-failure.js";
export { partialCreateOf, ResourceInitFailed } from "./init-failure.js";
export { main } from "./main.js";
export { moduleOf, resourceToken, resourceTokens, typeOfToken } from "./module-of.js";
export type { NativeCheckFailure, NativeDiff, PropertyChange } from "./native-provider.js";
export { NativeProvider } from "./native-provider.js";
export type { SchemaDocs, SchemaObject, SchemaProperty, SchemaType } from "./package-schema.js";
export { PLUGIN_DOWNLOAD_URL, packageSchema } from "./package-schema.js";
export type { Unwrapped } from "./property-values.js";
export { isSecretValue, unwrapSecrets, wrapSecrets } from "./property-values.js";
export type { RunningPlugin } from "./serve.js";
export { serve } from "./serve.js";
export { functionToken, PACKAGE, resourceTypesByToken } from "./type-tokens.js";
