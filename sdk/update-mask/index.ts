export type { ComputedUpdate } from "./compute-update.js";
export { computeUpdate, deepEqual } from "./compute-update.js";
