// The Identity, Registry and Vulnerability Platform (IRV): groups, identities, roles and bindings.
package irv
