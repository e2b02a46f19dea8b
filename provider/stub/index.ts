export { providerStub, stubFor } from "./provider-stub.js";
