// Public face of the consumer test's support: pack the packages, install them into temp projects
// outside the repository, start the installed emulator, drive the projects' stacks.

export type { ConsumerManifest } from "./consumer-project.js";
export { installedCopies, makeProject, npm, treeBytes } from "./consumer-project.js";
export type { FallbackCompilerReport } from "./fallback-compiler.js";
export { fallbackCompilerReport } from "./fallback-compiler.js";
export type { InstalledEmulator, ReadyLine } from "./installed-emulator.js";
export { startInstalledEmulator } from "./installed-emulator.js";
export type { PackedPackage } from "./packed-packages.js";
export { packPackages } from "./packed-packages.js";
export type { ProjectStack } from "./project-stack.js";
export { projectStack } from "./project-stack.js";
