export { isStubType, providerStub, stubFor } from "./provider-stub.js";
export type { StubType } from "./provider-stub.js";
