export { IrvResource } from "./irv-resource.js";
