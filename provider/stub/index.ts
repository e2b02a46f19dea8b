export type { StubType } from "./provider-stub.js";
export { isStubType, providerStub, stubFor } from "./provider-stub.js";
export type { ResourceType } from "./resource-types.js";
export { RESOURCE_TYPES } from "./resource-types.js";
