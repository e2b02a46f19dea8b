export { clientFor, type IrvSettings, resolveSettings, SETTINGS, tokenSourceFor } from "./settings.js";
