/**
 * `pulumi-irv/review`: the access model, in one place for its three users (`pulumi-irv
 * access-review`, `pulumi-irv drift` and the policy pack's `access-broadening` gate). `access/` is the
 * computation — effective capabilities through the group tree, the before/after rows with their risk
 * classes, finding ids, approvals and the live read; `render/` turns it into the comment, the JSON,
 * the text table and the diagram. It builds on the typed client (`pulumi-irv/sdk`), which knows
 * nothing of it.
 *
 * @example
 * import { orgModelOf, renderMarkdown, reviewAccess } from "pulumi-irv/review";
 */
export * from "./access/index.js";
export * from "./render/index.js";
