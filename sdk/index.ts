export * from "./errors/index.js";
export * from "./schemas/index.js";
