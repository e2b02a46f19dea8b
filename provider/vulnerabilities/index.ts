export { type GetAdvisoriesResult, getAdvisories, getAdvisoriesOutput } from "./get-advisories.js";
