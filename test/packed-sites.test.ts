// A file's sites travel as columns (src/graph/packed-sites.ts): the collector packs them, the
// parse workers send them, the indexer describes edges from them. These tests pin that nothing
// is lost on the way: `ExtractedGraph.sites` reads back exactly the facts a visitor reported,
// through a worker's wire form too, and a graph given as plain facts (a custom processor's)
// describes the same rows as the packed one.
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry, type LanguageDefinition, type ReferenceVisitor, type SiteFact } from '../src/index.js';
import { describeFile } from '../src/graph/describe.js';
import { packedSitesOf, packFacts, withoutSites } from '../src/graph/packed-sites.js';
import { graphStrategyFor } from '../src/graph/languages/index.js';
import type { NamingContext } from '../src/graph/strategy.js';
import { extractSource, type ExtractedFile } from '../src/parser/extract.js';
import { ParserPool } from '../src/parser/runtime.js';
import { fromWire, toWire } from '../src/parser/worker-protocol.js';
import { graphFixture } from './helpers/graph.js';

const pool = new ParserPool();
const registry = createDefaultRegistry();
const python = registry.get('python')!;

const SOURCE = `import os.path

class Base:
    pass

class Shop(Base):
    def add(self, item):
        self.save(item)
        return item

def main():
    helper()
`;

/** Every shape a site can have, reported at the definitions of SOURCE (sites go where their node is). */
const REPORTED: readonly Omit<SiteFact, 'line' | 'caller'>[] = [
  { kind: 'inherits', name: 'Base', kindFromTarget: true },
  { kind: 'call', name: 'save', receiver: { kind: 'self' }, arity: 1 },
  { kind: 'call', name: 'get', receiver: { kind: 'self', attribute: 'store' } },
  { kind: 'call', name: 'save', receiver: { kind: 'super', type: 'Base' } },
  { kind: 'call', name: 'make', receiver: { kind: 'type', type: 'models.Shop', constructed: true }, construct: true },
  { kind: 'call', name: 'run', receiver: { kind: 'path', path: ['pkg', 'sub'] }, moduleScope: true },
  { kind: 'call', name: 'item', fixed: 'parameter' },
  { kind: 'reference', name: 'handle', receiver: { kind: 'type', type: 'Shop' }, fixed: 'dynamic' },
  { kind: 'call', name: '__init__', superConstructor: true, arity: 0 },
  { kind: 'import', name: 'os.path' },
  { kind: 'implements', name: 'Sized', fixed: 'local-variable' },
];

describe('packed sites', () => {
  it('read back exactly the facts a visitor reported, with their lines and callers', async () => {
    // One fact per reporting node: the import (line 1), the class Shop (6), the method add (7), the function main (11), the call helper() (12).
    const references: ReferenceVisitor = (root, sink) => {
      const shop = root.descendantsOfType('class_definition')[1]!;
      const add = root.descendantsOfType('function_definition')[0]!;
      const main = root.descendantsOfType('function_definition')[1]!;
      const call = root.descendantsOfType('call').find((c) => c?.text === 'helper()')!;
      const imported = root.descendantsOfType('import_statement')[0]!;
      const at = [shop, add, add, add, add, add, add, main, shop, imported, call];
      REPORTED.forEach((fact, i) => sink.site(at[i]!, fact));
    };
    const language: LanguageDefinition = { ...python, id: 'python_packed', references };
    const file = await extractSource(pool, language, SOURCE);
    // Definitions are functions first (add, main), then classes (Base, Shop).
    const lines = [6, 7, 7, 7, 7, 7, 7, 11, 6, 1, 12];
    const callers = [3, 0, 0, 0, 0, 0, 0, 1, 3, -1, 1];
    expect(file.graph!.sites).toEqual(REPORTED.map((fact, i) => ({ ...fact, line: lines[i], caller: callers[i] })));
    // Through a worker's reply: the same facts.
    const wired = fromWire(toWire(file), SOURCE);
    expect(packedSitesOf(wired.graph!)).toBeDefined();
    expect(wired.graph!.sites).toEqual(file.graph!.sites);
    expect(JSON.parse(JSON.stringify(wired.graph))).toEqual(JSON.parse(JSON.stringify(file.graph)));
  });

  it('describe the same edge rows as the same graph given as plain facts', async () => {
    const files = graphFixture('python');
    let sites = 0;
    for (const [path, source] of Object.entries(files)) {
      const language = registry.forPath(`/${path}`);
      if (!language?.references) continue;
      const packed = await extractSource(pool, language, source);
      // What a custom processor returns: a plain object, its sites as facts.
      const plain: ExtractedFile = { ...packed, graph: { ...withoutSites(packed.graph!), sites: packed.graph!.sites.map((s) => ({ ...s })) } };
      expect(packedSitesOf(plain.graph!)).toBeUndefined();
      const strategy = graphStrategyFor(language.id);
      const context: NamingContext = { rootName: 'shop', rootIsPythonPackage: false, manifests: new Map() };
      expect(describeFile(path, packed, strategy, context)).toEqual(describeFile(path, plain, strategy, context));
      sites += packed.graph!.sites.length;
    }
    expect(sites).toBeGreaterThan(50);
  });

  it('pack again to the same columns for every fixture file of every language', async () => {
    const languages = new Set<string>();
    for (const name of ['bash', 'c', 'cpp', 'csharp', 'go', 'java', 'kotlin', 'lua', 'php', 'python', 'ruby', 'rust', 'scala', 'typescript']) {
      for (const [path, source] of Object.entries(graphFixture(name))) {
        const language = registry.forPath(`/${path}`);
        if (!language?.references) continue;
        const graph = (await extractSource(pool, language, source)).graph!;
        expect(packFacts(graph.sites), `${name}/${path}`).toEqual(packedSitesOf(graph));
        if (graph.sites.length > 0) languages.add(language.id);
      }
    }
    expect(languages.size).toBeGreaterThanOrEqual(15);
  });
});
