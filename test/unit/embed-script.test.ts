/**
 * The embeddable search box is served as one classic script put together from two modules of public/
 * (src/registry/embed/embed-script.ts): the real files make one script with no module syntax left, and a
 * change to either that the joining does not know stops the registry at start instead of shipping a broken box.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleEmbedScript } from '../../src/registry/embed/embed-script.js';
import { ROOT } from '../support/processes.js';

const PUBLIC = path.join(ROOT, 'public');

describe('the embed script put together', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'embed-script-'));
    mkdirSync(path.join(dir, 'embed'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (element: string, shared: string) => {
    writeFileSync(path.join(dir, 'embed', 'curie-search.js'), element);
    writeFileSync(path.join(dir, 'namespace-suggestions.js'), shared);
  };

  it('is the element and the site\'s combobox in one function scope, without import, export or comment-only lines', () => {
    const script = bundleEmbedScript(PUBLIC);
    expect(script.startsWith("(() => {\n'use strict';\n")).toBe(true);
    expect(script.endsWith('})();\n')).toBe(true);
    expect(script).not.toMatch(/^\s*(import|export)\b/m);
    expect(script).not.toMatch(/^\s*\/\//m);
    expect(script).toContain('function attachNamespaceSuggestions(');
    expect(script).toContain("customElements.define(TAG, CurieSearch)");
    // It parses as a classic script (a module's syntax would not).
    expect(() => new Function(script)).not.toThrow();
  });

  it('refuses an element that no longer imports the combobox, or a combobox that no longer exports it', () => {
    write('const x = 1;\n', 'export function attachNamespaceSuggestions() {}\n');
    expect(() => bundleEmbedScript(dir)).toThrow(/must import attachNamespaceSuggestions/);
    write("import { attachNamespaceSuggestions } from '../namespace-suggestions.js';\n", 'function attachNamespaceSuggestions() {}\n');
    expect(() => bundleEmbedScript(dir)).toThrow(/must import attachNamespaceSuggestions/);
  });

  it('refuses any other import or export', () => {
    write("import { attachNamespaceSuggestions } from '../namespace-suggestions.js';\nimport { other } from './other.js';\n", 'export function attachNamespaceSuggestions() {}\n');
    expect(() => bundleEmbedScript(dir)).toThrow(/no other import or export/);
    write("import { attachNamespaceSuggestions } from '../namespace-suggestions.js';\n", 'export function attachNamespaceSuggestions() {}\nexport const more = 1;\n');
    expect(() => bundleEmbedScript(dir)).toThrow(/no other import or export/);
  });
});
