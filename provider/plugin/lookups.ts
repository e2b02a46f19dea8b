// The lookups the plugin serves as invokes: each module records its read in the data source table
// when it loads. Loaded one by one, not through their namespaces (`irv.iam`, …), which would load
// the TypeScript resource classes and @pulumi/pulumi's root the plugin has no use for. A new lookup
// module needs a line here: test/unit/provider/plugin/plugin-imports.test.ts fails until it has one.
import "../events/get-subscriptions.js";
import "../iam/aws-role-identity.js";
import "../iam/get-external-group-role-mappings.js";
import "../iam/get-group.js";
import "../iam/get-identity.js";
import "../iam/get-identity-providers.js";
import "../iam/get-roles.js";
import "../iam/github-actions-claims.js";
import "../iam/gitlab-ci-claims.js";
import "../registry/get-overlay-bindings.js";
import "../registry/get-overlays.js";
import "../registry/get-repos.js";
import "../registry/get-tags.js";
import "../vulnerabilities/get-advisories.js";
