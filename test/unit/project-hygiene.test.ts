import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { ROOT } from '../support/processes.js';

interface PackageJson {
  license: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
}
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.(tsx?|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

/**
 * Packages the shipped code loads at run time: value imports only (`import type` is erased), and packages
 * whose files it reads (`require.resolve('swagger-ui-dist/package.json')`).
 */
function packagesImportedBy(dirs: string[]): Set<string> {
  const found = new Set<string>();
  const importLine = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"./][^'"]*)['"]/gm;
  const dynamicImport = /import\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g;
  // A package's folder located by its package.json (the optional compiler ensure-built.mjs looks for is not).
  const resolvedFile = /\.resolve\(\s*['"]([^'"./][^'"]*)\/package\.json['"]\s*\)/g;
  const tsconfig = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: { jsxImportSource?: string } };
  for (const file of dirs.flatMap((d) => sourceFiles(path.join(ROOT, d)))) {
    const text = readFileSync(file, 'utf8');
    // A template's JSX compiles to imports of the configured JSX runtime (preact/jsx-runtime).
    if (file.endsWith('.tsx') && tsconfig.compilerOptions.jsxImportSource) found.add(tsconfig.compilerOptions.jsxImportSource);
    for (const match of [...text.matchAll(importLine), ...text.matchAll(dynamicImport), ...text.matchAll(resolvedFile)]) {
      const specifier = match[1] as string;
      if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      const parts = specifier.split('/');
      found.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string));
    }
  }
  return found;
}

describe('project hygiene', () => {
  it('declares every package the service imports as a dependency, and no dependency it does not import', () => {
    const imported = packagesImportedBy(['src', 'workers', 'migrations', 'scripts']);
    const declared = Object.keys(pkg.dependencies);
    expect([...imported].filter((name) => !declared.includes(name)).sort()).toEqual([]);
    expect(declared.filter((name) => !imported.has(name)).sort()).toEqual([]);
  });

  it('decides for every installed package with an install script whether it may run (npm ci warns of any left undecided)', () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.filter((name) => !(name in pkg.allowScripts)).sort()).toEqual([]);
  });

  it('keeps type packages out of the production dependencies', () => {
    expect(Object.keys(pkg.dependencies).filter((name) => name.startsWith('@types/'))).toEqual([]);
  });

  it('ships the licence package.json names', () => {
    expect(pkg.license).toBe('Apache-2.0');
    const text = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
  });

  it('.nvmrc names a Node major version that engines accepts', () => {
    const major = Number(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim());
    expect(major).toBeGreaterThanOrEqual(20);
    const ranges = pkg.engines.node.split('||').map((r) => r.trim());
    const accepts = ranges.some((range) => {
      const caret = /^\^(\d+)\./.exec(range);
      if (caret) return Number(caret[1]) === major;
      const atLeast = /^>=(\d+)\./.exec(range);
      return atLeast ? major >= Number(atLeast[1]) : false;
    });
    expect(accepts).toBe(true);
  });
});
