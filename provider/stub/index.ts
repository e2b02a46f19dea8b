export type { StubType } from "./provider-stub.js";
export { isStubType, providerStub, stubFor } from "./provider-stub.js";
