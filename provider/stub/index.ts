export { isStubType, providerStub, type StubType, stubFor } from "./provider-stub.js";
