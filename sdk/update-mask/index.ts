export { type ComputedUpdate, computeUpdate, deepEqual } from "./compute-update.js";
