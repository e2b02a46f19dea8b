import { createRequire } from "node:module";
import path from "node:path";

// The slice of the TypeScript compiler API used here (the vendored 3.8 has no types we can import).
interface Diagnostic {
  file?: { fileName: string };
  messageText: unknown;
}
interface TypeScriptApi {
  version: string;
  sys: object;
  getParsedCommandLineOfConfigFile(
    file: string,
    options: object,
    host: object,
  ): { fileNames: string[]; options: object } | undefined;
  createProgram(files: string[], options: object): { getSourceFiles(): { fileName: string }[] };
  getPreEmitDiagnostics(program: object): readonly Diagnostic[];
  flattenDiagnosticMessageText(text: unknown, newLine: string): string;
}

/** What the fallback compiler says about one package's declarations. */
export interface FallbackCompilerReport {
  /** The compiler's version, e.g. `3.8.3`. */
  version: string;
  /** Declaration files of the package the program loaded. */
  packageFiles: string[];
  /** Diagnostics in those files, as `file: message`. */
  errors: string[];
}

/**
 * Compiles a project's tsconfig with the TypeScript that `@pulumi/pulumi` vendors and falls back to
 * when the project has no `typescript` of its own, and reports what it says about `pkg`'s
 * declarations. (It cannot read current `@types/node` at all; only `pkg`'s files are judged.)
 *
 * @example
 * const { errors } = fallbackCompilerReport(projectDir, "pulumi-irv"); // []
 */
export function fallbackCompilerReport(projectDir: string, pkg: string): FallbackCompilerReport {
  const fromProject = createRequire(path.join(projectDir, "package.json"));
  const pulumiDir = path.dirname(fromProject.resolve("@pulumi/pulumi/package.json"));
  const ts = fromProject(
    path.join(pulumiDir, "vendor", "typescript@3.8.3", "typescript.js"),
  ) as TypeScriptApi;
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(projectDir, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  if (config === undefined)
    throw new Error(`TypeScript ${ts.version} could not read ${projectDir}/tsconfig.json`);
  const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
  const mine = (file: string) => file.includes(`/node_modules/${pkg}/`);
  return {
    version: ts.version,
    packageFiles: program
      .getSourceFiles()
      .map((f) => f.fileName)
      .filter(mine),
    errors: ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file !== undefined && mine(d.file.fileName))
      .map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
  };
}
