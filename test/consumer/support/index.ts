// Public face of the consumer test's support: pack the packages, install them into temp projects
// outside the repository, start the installed emulator, drive the projects' stacks.
export { type ConsumerManifest, installedCopies, makeProject, npm, treeBytes } from "./consumer-project.js";
export { type FallbackCompilerReport, fallbackCompilerReport } from "./fallback-compiler.js";
export { type InstalledEmulator, type ReadyLine, startInstalledEmulator } from "./installed-emulator.js";
export { type PackedPackage, packPackages } from "./packed-packages.js";
export { type ProjectStack, projectStack } from "./project-stack.js";
