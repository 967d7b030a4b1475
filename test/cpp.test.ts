import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
import { cpp } from '../src/languages/index.js';
import { extractSource } from '../src/parser/extract.js';
import { ParserPool, textToParse } from '../src/parser/runtime.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('cpp visitor', () => {
  it('extracts classes, structs, unions, inline and out-of-class methods and free functions with exact ranges', async () => {
    const { rows, db } = await extractRows('shapes.cpp', fixture('cpp/shapes.cpp'));
    try {
      expect(rows).toEqual([
        // Forward declarations (3-4), the elaborated `class Real*` (5) and the prototype (6) are absent.
        { kind: 'class', name: 'Shape', lines: '10-33' },
        { kind: 'method', name: 'Shape', lines: '13-13', parent: 'Shape' },
        { kind: 'method', name: 'area', lines: '18-18', parent: 'Shape' },
        { kind: 'method', name: 'operator=', lines: '19-19', parent: 'Shape' },
        // The `template <typename U>` line (20) is outside the member template's range.
        { kind: 'method', name: 'visit', lines: '21-23', parent: 'Shape' },
        { kind: 'class', name: 'Inner', lines: '24-26' },
        { kind: 'method', name: 'deep', lines: '25-25', parent: 'Inner' },
        // An inline friend is a free function.
        { kind: 'function', name: 'operator==', lines: '27-27' },
        { kind: 'method', name: 'Shape', lines: '35-35', parent: 'Shape' },
        { kind: 'method', name: '~Shape', lines: '37-37', parent: 'Shape' },
        { kind: 'method', name: 'clone', lines: '39-41', parent: 'Shape' },
        { kind: 'method', name: 'name', lines: '43-43', parent: 'Shape' },
        { kind: 'method', name: 'rename', lines: '45-47', parent: 'Shape' },
        { kind: 'class', name: 'Stack', lines: '52-56' },
        { kind: 'method', name: 'empty', lines: '55-55', parent: 'Stack' },
        { kind: 'method', name: 'pop', lines: '59-61', parent: 'Stack' },
        { kind: 'class', name: 'Outer', lines: '64-68' },
        { kind: 'class', name: 'Inner', lines: '65-67' },
        { kind: 'method', name: 'f', lines: '71-71', parent: 'Inner' },
        { kind: 'class', name: 'Point', lines: '73-80' },
        { kind: 'method', name: 'norm', lines: '76-78', parent: 'Point' },
        { kind: 'class', name: 'Value', lines: '82-85' },
        { kind: 'class', name: 'Pair', lines: '87-90' },
        { kind: 'function', name: 'dup', lines: '92-92' },
        { kind: 'function', name: 'split', lines: '94-96' },
        { kind: 'function', name: 'counter', lines: '98-101' },
        { kind: 'function', name: 'handler', lines: '103-105' },
        { kind: 'function', name: 'paren', lines: '107-107' },
        { kind: 'function', name: 'operator<', lines: '109-109' },
        // The lambda inside apply (112) is not indexed.
        { kind: 'function', name: 'apply', lines: '111-114' },
        { kind: 'method', name: 'operator bool', lines: '116-116', parent: 'Point' },
        { kind: 'class', name: 'Stack', lines: '119-121' },
        { kind: 'method', name: 'top', lines: '120-120', parent: 'Stack' },
        // An attribute macro (`__init`) reads as a scope with a MISSING `::`: not a class.
        { kind: 'function', name: 'board_setup', lines: '123-123' },
      ]);
    } finally {
      db.close();
    }
  });

  it('finds out-of-class implementations as class methods under their plain name', async () => {
    const { db } = await extractRows('shapes.cpp', fixture('cpp/shapes.cpp'));
    try {
      const clones = await db.queryFunction('clone', 'class_method');
      expect(clones.map((e) => [e.parentClass, e.startLine])).toEqual([['Shape', 39]]);
      expect(clones[0]?.body.startsWith('Shape* Shape::clone() const {')).toBe(true);
      const pops = await db.queryFunction('pop', 'class_method');
      expect(pops.map((e) => [e.parentClass, e.startLine])).toEqual([['Stack', 59]]);
      expect(pops[0]?.body.startsWith('T Stack<T>::pop() {')).toBe(true);
      // Reference-returning definitions are kept, by their plain name.
      expect((await db.queryFunction('counter')).map((e) => e.startLine)).toEqual([98]);
      expect(await db.queryFunction('clone')).toEqual([]);
      expect(await db.queryClass('Real')).toEqual([]);
      expect(await db.queryClass('Forward')).toEqual([]);
      expect(await db.queryFunction('prototype')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('summarises members by their declarator chain, skipping nested types, friends and access specifiers', async () => {
    const { db } = await extractRows('shapes.cpp', fixture('cpp/shapes.cpp'));
    try {
      const [shape] = await db.queryClass('Shape');
      expect(shape?.methods).toBe(
        [
          '- Shape();',
          '- explicit Shape(const std::string& n) : name_(n)',
          '- virtual ~Shape();',
          '- Shape* clone() const;',
          '- const std::string& name() const;',
          '- void rename(const std::string& n);',
          '- int area() const',
          '- Shape& operator=(const Shape&) = default;',
          '- template <typename U> void visit(U u)',
          '- int (*pick(int which))(int);',
        ].join('\n'),
      );
      expect(shape?.fields).toBe(['- std::string name_;', '- int (*callback_)(int);'].join('\n'));
      expect(shape?.body.startsWith('class Shape {')).toBe(true);
      const [point] = await db.queryClass('Point');
      expect(point?.fields).toBe(['- int x;', '- int y;'].join('\n'));
      expect(point?.methods).toBe(['- double norm() const', '- explicit operator bool() const;'].join('\n'));
      const [value] = await db.queryClass('Value');
      expect(value?.fields).toBe(['- int i;', '- float f;'].join('\n'));
      expect(value?.methods).toBeUndefined();
      const [pair] = await db.queryClass('Pair');
      expect(pair?.body.startsWith('struct {')).toBe(true);
      expect(pair?.fields).toBe(['- int first;', '- int second;'].join('\n'));
      const [outer] = await db.queryClass('Outer');
      expect(outer?.fields).toBeUndefined();
      expect(outer?.methods).toBeUndefined();
      const stacks = await db.queryClass('Stack');
      expect(stacks.map((s) => s.methods)).toEqual(['- T pop();\n- bool empty() const', '- T* top()']);
    } finally {
      db.close();
    }
  });

  it('still finds the definitions around a syntax error', async () => {
    const source = fixture('cpp/broken.cpp');
    const pool = new ParserPool();
    try {
      const extracted = await extractSource(pool, cpp, source);
      expect(extracted.hasSyntaxErrors).toBe(true);
    } finally {
      await pool.delete();
    }
    const { rows, db } = await extractRows('broken.cpp', source);
    try {
      expect(rows).toEqual([
        { kind: 'class', name: 'Before', lines: '3-6' },
        { kind: 'method', name: 'ok', lines: '5-5', parent: 'Before' },
        { kind: 'function', name: 'after', lines: '10-12' },
        { kind: 'class', name: 'After', lines: '14-16' },
        { kind: 'method', name: 'm', lines: '15-15', parent: 'After' },
      ]);
    } finally {
      db.close();
    }
  });

  it('owns the C++ extensions, leaving .h to C', () => {
    const registry = createDefaultRegistry();
    for (const ext of ['.cpp', '.hpp', '.cc', '.cxx', '.c++', '.hh', '.hxx', '.ipp', '.tpp', '.inl']) expect(registry.forPath(`/src/a${ext}`)?.id).toBe('cpp');
    expect(registry.forPath('/src/a.h')?.id).toBe('c');
    expect(cpp.grammarPackage).toEqual({ name: 'tree-sitter-cpp', version: '0.23.4' });
  });
});

describe('cpp: macros around declaration heads', () => {
  const source = fixture('cpp/macros.hpp');

  it('keeps the classes and methods that macros next to class heads used to hide', async () => {
    const { rows, db } = await extractRows('macros.hpp', source);
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        // `NLOHMANN_JSON_NAMESPACE_BEGIN` (no `;`) before a template.
        { kind: 'class', name: 'adl_serializer', lines: '7-10' },
        { kind: 'method', name: 'to_json', lines: '9-9', parent: 'adl_serializer' },
        // A macro line standing for `template<…>`; an access-specifier macro; `JSON_TRY` ⏎ `{`;
        // `decltype(a, b)`. `JSON_CATCH (...) { … }` inside the method is no function.
        { kind: 'class', name: 'basic_json', lines: '13-37' },
        { kind: 'method', name: 'parse', lines: '20-30', parent: 'basic_json' },
        { kind: 'method', name: 'get', lines: '33-36', parent: 'basic_json' },
        // An export macro between `class` and the name.
        { kind: 'class', name: 'widget', lines: '41-44' },
        { kind: 'method', name: 'what', lines: '43-43', parent: 'widget' },
        // `#if` inside the base clause; `BOOST_BEAST_DECL` lines before members.
        { kind: 'class', name: 'stream', lines: '47-57' },
        { kind: 'method', name: 'count', lines: '56-56', parent: 'stream' },
        // A return-type macro with arguments stays in the definition's range.
        { kind: 'method', name: 'async_close', lines: '60-65', parent: 'stream' },
        { kind: 'class', name: 'Mode', lines: '67-67' },
        // GoogleTest: a macro with a body and no type, named after its second argument.
        { kind: 'function', name: 'ParsesEmpty', lines: '69-72' },
        // `typename T::value_type(…)` as an expression parses (in a large class, error recovery
        // there swallowed the methods after it: nlohmann's `basic_json::push_back`).
        { kind: 'class', name: 'holder', lines: '75-83' },
        { kind: 'method', name: 'push', lines: '77-80', parent: 'holder' },
        { kind: 'method', name: 'size', lines: '82-82', parent: 'holder' },
      ]);
      const [json] = await db.queryClass('basic_json');
      // Bodies and summaries are the original text, macros included.
      expect(json?.body.startsWith('class basic_json\n{\n  JSON_PRIVATE_UNLESS_TESTED:\n')).toBe(true);
      expect(json?.fields).toBe('- int m_type = 0;');
      const [stream] = await db.queryClass('stream');
      expect(stream?.body).toContain('#if ! BOOST_BEAST_DOXYGEN\n    : private stream_base\n#endif');
      expect(stream?.methods).toBe('- void close();\n- static int count()');
      expect((await db.queryFunction('async_close', 'class_method'))[0]?.body.startsWith('BOOST_BEAST_ASYNC_RESULT1(Handler)\nstream<Handler>::')).toBe(true);
      expect((await db.queryClass('Mode'))[0]?.fields).toBe('- On\n- Off');
    } finally {
      db.close();
    }
  });

  it('loses those classes without the rewrite (the grammar alone cannot place the macros)', async () => {
    const pool = new ParserPool();
    try {
      const plain = await extractSource(pool, { ...cpp, id: 'cpp_plain', rewriteSource: undefined }, source);
      const classes = plain.classes.map((c) => c.name);
      for (const lost of ['basic_json', 'widget', 'stream']) expect(classes).not.toContain(lost);
      expect(plain.hasSyntaxErrors).toBe(true);
    } finally {
      await pool.delete();
    }
  });

  it('rewrites with every offset kept: same length, line breaks in place, only spaces and single characters changed', () => {
    const rewritten = textToParse(cpp, source);
    expect(rewritten).not.toBe(source);
    expect(rewritten.length).toBe(source.length);
    for (let i = 0; i < source.length; i++) {
      if (source[i] === rewritten[i]) continue;
      expect(source[i]).not.toBe('\n');
      expect(rewritten[i] === ' ' || '<>;|'.includes(rewritten[i]!) || /[a-z]/.test(rewritten[i]!)).toBe(true);
    }
  });

  it('indexes .ipp implementation files', async () => {
    const { rows, db } = await extractRows('stream.ipp', 'namespace beast {\nvoid\nstream::close()\n{\n}\n}\n');
    try {
      expect(rows).toEqual([{ kind: 'method', name: 'close', lines: '2-5', parent: 'stream' }]);
    } finally {
      db.close();
    }
  });
});
