export { type ListFilter, type ListFilterInput, programClient, toQuery } from "./program-client.js";
