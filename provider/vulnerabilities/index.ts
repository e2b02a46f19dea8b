export type {
  GetAdvisoriesFilter,
  GetAdvisoriesFilterInput,
  GetAdvisoriesResult,
} from "./get-advisories.js";
export { getAdvisories, getAdvisoriesOutput } from "./get-advisories.js";
