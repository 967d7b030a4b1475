// One walk of a tree serves both visitors of a file (src/languages/common.ts): the reference
// pass keeps its walk, the definitions visitor takes the part it needs. These tests pin what the
// definitions visitor gets: exactly a walk of its own, whether the kept walk fits or not.
import { describe, expect, it, vi } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { createDefaultRegistry } from '../src/index.js';
import { definitionDescendants, typedDescendants } from '../src/languages/common.js';
import { ParserPool } from '../src/parser/runtime.js';

const pool = new ParserPool();

const SOURCE = `
function top() { return [1, 2].map((x) => x + 1); }
class Shape { area() { return helper(this); } }
const make = () => new Shape();
`;

async function parse(): Promise<{ root: Node; done: () => void }> {
  const language = createDefaultRegistry().forPath('/a.js')!;
  const tree = await pool.parse(language, SOURCE);
  return { root: tree.rootNode, done: () => tree.delete() };
}

/** Start offsets and types: what a visitor reads of a walk. */
function shape(walk: { readonly nodes: Node[]; readonly types: string[] }): string[] {
  return walk.nodes.map((n, i) => `${n.startIndex} ${walk.types[i]}`);
}

const DEFINITIONS = ['function_declaration', 'class_declaration', 'method_definition', 'arrow_function'];

describe('a reference pass shares its walk with the definitions visitor', () => {
  it('gives the definitions visitor what a walk of its own gives, from the kept walk', async () => {
    const { root, done } = await parse();
    try {
      const own = shape(typedDescendants(root, DEFINITIONS));
      expect(own.length).toBe(5); // top, its arrow callback, Shape, area, make
      const calls = ['call_expression', 'new_expression'];
      const ownCalls = shape(typedDescendants(root, calls));
      expect(ownCalls.length).toBe(3); // [1, 2].map(…), helper(this), new Shape()
      // The reference pass gets exactly its own types from the shared walk…
      const refs = typedDescendants(root, calls, DEFINITIONS);
      expect(shape(refs)).toEqual(ownCalls);
      // …and the definitions visitor its part of the same walk, with no walk of its own.
      const walks = vi.spyOn(Object.getPrototypeOf(root) as Node, 'descendantsOfType');
      try {
        const taken = definitionDescendants(root, DEFINITIONS);
        expect(shape(taken)).toEqual(own);
        expect(walks).not.toHaveBeenCalled();
      } finally {
        walks.mockRestore();
      }
    } finally {
      done();
    }
  });

  it('walks again when the kept walk lacks a type, and takes a kept walk once', async () => {
    const { root, done } = await parse();
    try {
      const own = shape(typedDescendants(root, DEFINITIONS));
      const kept = typedDescendants(root, ['call_expression'], ['function_declaration']);
      const partial = definitionDescendants(root, DEFINITIONS);
      expect(shape(partial)).toEqual(own);
      expect(partial.nodes.some((n) => kept.nodes.includes(n))).toBe(false);
      // The walk was taken (and dropped): the next visitor walks on its own.
      typedDescendants(root, ['call_expression'], DEFINITIONS);
      const first = definitionDescendants(root, DEFINITIONS);
      const second = definitionDescendants(root, DEFINITIONS);
      expect(shape(second)).toEqual(own);
      expect(second.nodes.some((n) => first.nodes.includes(n))).toBe(false);
    } finally {
      done();
    }
  });

  it('never hands a walk of one subtree to a visitor of another', async () => {
    const { root, done } = await parse();
    try {
      const cls = typedDescendants(root, ['class_declaration']).nodes[0]!;
      typedDescendants(cls, ['call_expression'], DEFINITIONS);
      expect(shape(definitionDescendants(root, DEFINITIONS))).toEqual(shape(typedDescendants(root, DEFINITIONS)));
    } finally {
      done();
    }
  });
});
