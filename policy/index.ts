/**
 * The pulumi-irv policy pack. Loading this module starts the pack's analyzer (that is how the
 * policy runner uses it); tests import `./policies/index.js` instead.
 *
 * @example
 * pulumi preview --policy-pack node_modules/pulumi-irv-policy --policy-pack-config policy-config.json
 */
import { PolicyPack } from "@pulumi/policy";
import {
  accessBroadening,
  accessBroadeningAdvisory,
  customRoleLeastPrivilege,
  descriptionRequired,
  groupNamePattern,
  identityIssuerHttps,
  identityMatchTooBroad,
  idpIssuerHttps,
  inviteExpirationBounded,
  namingConvention,
  noBroadOwnerBinding,
  pullTokenTtlBounded,
} from "./policies/index.js";

new PolicyPack("irv", {
  policies: [
    groupNamePattern,
    namingConvention,
    identityIssuerHttps,
    noBroadOwnerBinding,
    descriptionRequired,
    identityMatchTooBroad,
    idpIssuerHttps,
    inviteExpirationBounded,
    pullTokenTtlBounded,
    customRoleLeastPrivilege,
    accessBroadening,
    // After access-broadening: it reports what that one could not judge in the same run.
    accessBroadeningAdvisory,
  ],
});
