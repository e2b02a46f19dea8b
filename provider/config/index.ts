export {
  clientFor,
  type IrvSettings,
  insecureHttpAllowed,
  resolveSettings,
  SETTINGS,
  tokenSourceFor,
} from "./settings.js";
