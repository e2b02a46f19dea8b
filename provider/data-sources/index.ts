export { programClient, toQuery } from "./program-client.js";
