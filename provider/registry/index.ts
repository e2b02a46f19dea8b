export type {
  GetOverlayBindingsArgs,
  GetOverlayBindingsResult,
} from "./get-overlay-bindings.js";
export {
  getOverlayBinding,
  getOverlayBindingOutput,
  getOverlayBindings,
  getOverlayBindingsOutput,
} from "./get-overlay-bindings.js";
export type { GetOverlaysResult } from "./get-overlays.js";
export { getOverlay, getOverlayOutput, getOverlays, getOverlaysOutput } from "./get-overlays.js";
export type { GetReposResult } from "./get-repos.js";
export { getRepo, getRepoOutput, getRepos, getReposOutput } from "./get-repos.js";
export type { GetTagsArgs, GetTagsResult } from "./get-tags.js";
export { getTag, getTagOutput, getTags, getTagsOutput } from "./get-tags.js";
export type { OverlayArgs } from "./overlay.js";
export { Overlay } from "./overlay.js";
export type { OverlayBindingArgs } from "./overlay-binding.js";
export { OverlayBinding } from "./overlay-binding.js";
export type { PullTokenArgs } from "./pull-token.js";
export { PullToken } from "./pull-token.js";
export type { CustomOverlayArgs, RepoArgs, SyncConfigArgs } from "./repo.js";
export { Repo } from "./repo.js";
export type { TagArgs } from "./tag.js";
export { Tag } from "./tag.js";
