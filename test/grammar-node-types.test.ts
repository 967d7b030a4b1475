// The language visitors find nodes by comparing their types with string literals, and a literal
// the grammar does not have fails silently: the rule never applies, no error, no test that
// happens not to exercise it notices (Python's visitor listed 'dict_comprehension' where
// tree-sitter-python says 'dictionary_comprehension'). This test reads every file under
// src/languages/ and src/languages/references/ that a built-in language's module reaches,
// collects the node-type literals it names, and fails on each one that no grammar of those
// languages has, as listed by the installed grammar package's src/node-types.json (named and
// anonymous types, supertypes' subtypes included; 'ERROR' is always valid). A file shared by
// several languages (c-family.ts: C and C++; ecmascript.ts: JavaScript, TypeScript, TSX) passes
// when one of its grammars has the name.
//
// The literals are read from the TypeScript syntax tree (the `typescript` package, in process:
// nothing is compiled or written), so comments and regular expressions never count:
// - the arguments of `typeSet(...)`, unless every use of the set is `SET.has(x)` with an `x` that
//   holds no node type: those are sets of names (`NOT_VALUES.has(name)`, `ATTRIBUTE_MACROS.has(method)`);
// - the argument of `descendantsOfType(...)`: a literal, an array literal, or a `const` array
//   of the file (`SEARCHED`); spread sets are counted where they are defined;
// - the `classTypes: [...]` option of the C-family visitor (c.ts, cpp.ts);
// - `===` / `!==` comparisons of a literal with an expression that holds a node's type, and the
//   `case` labels of a `switch` over one. Such an expression is `x.type` / `x?.type`, an element
//   of an array named `types` (the visitors' node types by index), or a variable or parameter
//   that gets one: initialised or assigned from one (`const leftType = left?.type`,
//   `wrapper = node.type`), or a parameter that a call in the file passes one to
//   (`#bind(node, type)` from `this.#bind(node, type, …)`). So `kind === 'module'` (a binding
//   kind), `switch (role)` (query capture names) and `typeReceiver(type: string)` (a class name,
//   `type === 'Self'`) are not node types, while a new `const t = node.type; t === 'x'` is.
// Deliberately not covered: tree-sitter query text (`new Query(language, ...)` rejects an unknown
// node type itself, when the query is first made), prefixes (`type.startsWith('template_')`),
// and node types that reach a comparison through other data (a function's return value, a
// property of an object other than `type`).
//
// Field names fail the same way: `childForFieldName('x')` with a field its grammar does not have
// returns null, silently. So the test also collects the field names each file passes to
// `childForFieldName` / `childrenForFieldName`, itself or through a helper, and fails on each one
// that no grammar of the file has: a key of some node type's `fields` in node-types.json, or a
// `FIELD` of the grammar.json beside it (Lua's `local_declaration` is only there). A helper is
// found, not listed: any function of these files called by name (declared, a method, or the value
// of a variable or property) whose parameter reaches such a call's field argument, itself or
// through another helper (`fieldText(node, field)` in common.ts, imported by the visitors). A
// field argument is read as a literal, both branches of `?:` / `??` / `||`
// (`isMethod ? 'method' : 'field'`), or a `const` of such; any other argument
// (`for (const f of list) node.childForFieldName(f)`, a callback's parameter) fails the test as
// unread, so no field name goes unchecked. A failure says what the grammars have instead when a
// field has a close name (`return_types` → `return_type` (function_definition)), or that no node
// has such a field.
// Deliberately not covered: which node type a field is on (a name is valid for a file when any of
// its grammars has it on any node type), field ids (`childForFieldId`), and `fieldNameForChild`'s
// results compared with literals (none are used).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BUILTIN_LANGUAGES } from '../src/languages/builtin.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LANGUAGES = join(repo, 'src/languages');

/** The module of a language's definition (`c_sharp` → csharp.ts, `tsx` → typescript.ts). */
const DEFINITION_FILE: Record<string, string> = { c_sharp: 'csharp', tsx: 'typescript' };
/** Imported by the language modules but no visitor code: plain data and types. */
const NOT_VISITORS = new Set(['builtin.ts', 'types.ts', 'registry.ts', 'index.ts'].map((f) => join(LANGUAGES, f)));
/** Files that name no node type by design: helpers and modules that only wire shared visitors. */
const NO_NODE_TYPES = new Set(['common.ts', 'references/scopes.ts', 'references/typed-scopes.ts', 'references/stored-members.ts', 'javascript.ts', 'typescript.ts'].map((f) => join(LANGUAGES, f)));
/**
 * Fewer sites than the usual floor (MIN_SITES), by what these files are: C and C++ pass the
 * C-family visitor only their class types; Bash has no classes.
 */
const SMALL_FILES: Record<string, number> = { 'bash.ts': 2, 'c.ts': 3, 'cpp.ts': 4 };
/** A visitor file names at least this many node types (sites, not distinct names): a broken extractor finds far fewer. */
const MIN_SITES = 6;
/** Files that name no field: those that name no node type, and C's and C++'s modules (they only wire the C-family visitor). */
const NO_FIELDS = new Set([...NO_NODE_TYPES, ...['c.ts', 'cpp.ts'].map((f) => join(LANGUAGES, f))]);
/**
 * Fewer field sites than the usual floor (MIN_FIELD_SITES), by what these files are: Bash's
 * visitors are small, and the Kotlin grammar has eight fields, of which the visitors need `name`;
 * the annotations of six languages are read through one field, `name`.
 */
const SMALL_FIELD_FILES: Record<string, number> = { 'bash.ts': 2, 'kotlin.ts': 2, 'references/bash.ts': 2, 'references/kotlin.ts': 2, 'references/annotations.ts': 1 };
/**
 * A visitor file names at least this many fields (sites, not distinct names). python.ts and
 * scala.ts name most of theirs (4 of 6, 3 of 5) through `fieldText`, kotlin.ts all (2), so a
 * helper the extractor no longer finds fails them too.
 */
const MIN_FIELD_SITES = 5;

/** A node type a source file names. */
interface Named {
  readonly literal: string;
  readonly line: number;
  /** The construct it was read from (`typeSet`, `descendantsOfType`, `===`, `case`, `classTypes`). */
  readonly via: string;
}

/** Every node type of a grammar: `type` anywhere in its node-types.json (named, anonymous, subtypes, field and child types). */
function nodeTypesOf(file: string): Set<string> {
  const out = new Set<string>(['ERROR']);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      const type = (value as { type?: unknown }).type;
      if (typeof type === 'string') out.add(type);
      Object.values(value).forEach(walk);
    }
  };
  walk(JSON.parse(readFileSync(file, 'utf8')));
  return out;
}

/**
 * Every field name of a grammar, with the node types that have it: the keys of each node type's
 * `fields` in node-types.json, and the `FIELD` rules of the grammar.json beside it (a field only
 * a supertype's alternatives carry is in no node type's `fields`, yet the parser has it: Lua's
 * `local_declaration`).
 */
function fieldsOf(file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { type, fields } of JSON.parse(readFileSync(file, 'utf8')) as { type: string; fields?: Record<string, unknown> }[]) {
    for (const field of Object.keys(fields ?? {})) out.set(field, [...(out.get(field) ?? []), type]);
  }
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      const { type, name } = value as { type?: unknown; name?: unknown };
      if (type === 'FIELD' && typeof name === 'string' && !out.has(name)) out.set(name, []);
      Object.values(value).forEach(walk);
    }
  };
  const grammar = join(dirname(file), 'grammar.json');
  if (existsSync(grammar)) walk(JSON.parse(readFileSync(grammar, 'utf8')));
  return out;
}

/** The installed node-types.json of a built-in language's grammar (`tree-sitter-tsx.wasm` → tree-sitter-typescript/tsx/src/). */
function grammarNodeTypesFile(language: (typeof BUILTIN_LANGUAGES)[number]): string {
  const pkg = language.grammarPackage!;
  const dir = join(repo, 'node_modules', pkg.name);
  const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  expect(installed.version, `${pkg.name} in node_modules is the version ${language.id} is built with`).toBe(pkg.version);
  // A built-in grammar is a file name: `tree-sitter-tsx.wasm`.
  const sub = join(dir, String(language.grammar).replace(/^tree-sitter-/, '').replace(/\.wasm$/, ''), 'src/node-types.json');
  return existsSync(sub) ? sub : join(dir, 'src/node-types.json');
}

/** Each file a language's module reaches through relative imports inside src/languages/, with the language ids reaching it. */
function visitorFiles(): Map<string, Set<string>> {
  const files = new Map<string, Set<string>>();
  const visit = (file: string, id: string): void => {
    const ids = files.get(file) ?? new Set<string>();
    if (ids.has(id)) return;
    files.set(file, ids.add(id));
    for (const match of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*'(\.[^']+)'/gm)) {
      const target = resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts'));
      if (target.startsWith(LANGUAGES) && !NOT_VISITORS.has(target) && existsSync(target)) visit(target, id);
    }
  };
  for (const language of BUILTIN_LANGUAGES) visit(join(LANGUAGES, `${DEFINITION_FILE[language.id] ?? language.id}.ts`), language.id);
  return files;
}

/**
 * A program of the source files (by path; `sources` may give texts instead of the files), only
 * for symbols: which declaration an identifier or a call's callee means, across the files (an
 * import of another file of `paths` resolves to its declaration; `noResolve` adds no others).
 */
function programOf(paths: readonly string[], sources: ReadonlyMap<string, string>): ts.Program {
  const options: ts.CompilerOptions = {
    noLib: true,
    noResolve: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => sources.get(name) ?? read(name);
  host.fileExists = (name) => sources.has(name) || existsSync(name);
  host.getSourceFile = (name, target) => {
    const text = host.readFile(name);
    return text === undefined ? undefined : ts.createSourceFile(name, text, target, true);
  };
  return ts.createProgram({ rootNames: [...paths], options, host });
}

/** Every node of a syntax tree, in source order. */
function nodesOf(source: ts.SourceFile): ts.Node[] {
  const all: ts.Node[] = [];
  const collect = (node: ts.Node): void => {
    all.push(node);
    ts.forEachChild(node, collect);
  };
  collect(source);
  return all;
}

/** The node-type literals of each source file (by path); `sources` may give texts instead of the files. */
function extractNodeTypes(paths: readonly string[], sources: ReadonlyMap<string, string> = new Map()): Map<string, Named[]> {
  const program = programOf(paths, sources);
  const checker = program.getTypeChecker();
  const out = new Map<string, Named[]>();
  for (const path of paths) {
    const source = program.getSourceFile(path)!;
    const all = nodesOf(source);
    const declarationOf = (node: ts.Node): ts.Declaration | undefined => checker.getSymbolAtLocation(node)?.valueDeclaration;
    const calleeName = (call: ts.CallExpression): ts.Node => (ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression);
    const calls = all.filter(ts.isCallExpression);
    const assignments = all.filter((n): n is ts.BinaryExpression => ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken);

    // Whether an expression holds a node's type (see the header). Memoised per declaration; a
    // declaration being decided counts as no while it is (cycles between parameters).
    const decided = new Map<ts.Declaration, boolean>();
    const holdsType = (expression: ts.Expression): boolean => {
      let e = expression;
      while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) e = e.expression;
      if (ts.isPropertyAccessExpression(e)) return e.name.text === 'type';
      if (ts.isElementAccessExpression(e)) {
        const array = e.expression;
        return (ts.isIdentifier(array) && array.text === 'types') || (ts.isPropertyAccessExpression(array) && array.name.text === 'types');
      }
      if (ts.isBinaryExpression(e)) {
        if (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) return holdsType(e.left) || holdsType(e.right);
        if (e.operatorToken.kind === ts.SyntaxKind.EqualsToken) return holdsType(e.right);
        return false;
      }
      if (!ts.isIdentifier(e)) return false;
      const declaration = declarationOf(e);
      if (!declaration || !(ts.isVariableDeclaration(declaration) || ts.isParameter(declaration))) return false;
      const known = decided.get(declaration);
      if (known !== undefined) return known;
      decided.set(declaration, false);
      const symbol = checker.getSymbolAtLocation(declaration.name);
      let holds = declaration.initializer !== undefined && holdsType(declaration.initializer);
      holds ||= assignments.some((a) => ts.isIdentifier(a.left) && checker.getSymbolAtLocation(a.left) === symbol && holdsType(a.right));
      if (!holds && ts.isParameter(declaration)) {
        const fn = declaration.parent;
        const index = fn.parameters.indexOf(declaration);
        const named = ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) ? fn.parent : fn;
        const name = ts.isVariableDeclaration(named) || ts.isFunctionDeclaration(named) || ts.isMethodDeclaration(named) ? named.name : undefined;
        const callee = name ? checker.getSymbolAtLocation(name) : undefined;
        holds =
          callee !== undefined &&
          calls.some((c) => {
            const argument = c.arguments[index];
            return argument !== undefined && checker.getSymbolAtLocation(calleeName(c)) === callee && holdsType(argument);
          });
      }
      decided.set(declaration, holds);
      return holds;
    };

    const names: Named[] = [];
    const add = (literal: ts.Node, via: string): void => {
      if (!ts.isStringLiteralLike(literal)) return;
      names.push({ literal: literal.text, line: source.getLineAndCharacterOfPosition(literal.getStart()).line + 1, via });
    };
    /** A `typeSet` held by a `const` whose every use is `SET.has(x)` with an `x` holding no node type: a set of names. */
    const isNameSet = (call: ts.CallExpression): boolean => {
      const holder = call.parent;
      if (!ts.isVariableDeclaration(holder) || !ts.isIdentifier(holder.name)) return false;
      const symbol = checker.getSymbolAtLocation(holder.name);
      const uses = all.filter((n) => ts.isIdentifier(n) && n !== holder.name && checker.getSymbolAtLocation(n) === symbol);
      return (
        uses.length > 0 &&
        uses.every((use) => {
          const member = use.parent;
          const has = member.parent;
          return ts.isPropertyAccessExpression(member) && member.name.text === 'has' && ts.isCallExpression(has) && has.arguments.length === 1 && !holdsType(has.arguments[0]!);
        })
      );
    };
    /** The literals of a `descendantsOfType` argument: a literal, an array literal, or a `const` array literal of the file. */
    const searched = (argument: ts.Expression): void => {
      if (ts.isIdentifier(argument)) {
        const declaration = declarationOf(argument);
        if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) searched(declaration.initializer);
      } else if (ts.isArrayLiteralExpression(argument)) argument.elements.forEach((e) => add(e, 'descendantsOfType'));
      else add(argument, 'descendantsOfType');
    };
    for (const node of all) {
      if (ts.isCallExpression(node)) {
        const callee = calleeName(node);
        if (ts.isIdentifier(callee) && callee.text === 'typeSet' && !isNameSet(node)) node.arguments.forEach((a) => add(a, 'typeSet'));
        if (ts.isIdentifier(callee) && callee.text === 'descendantsOfType' && node.arguments[0]) searched(node.arguments[0]);
      } else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'classTypes' && ts.isArrayLiteralExpression(node.initializer)) {
        node.initializer.elements.forEach((e) => add(e, 'classTypes'));
      } else if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)) {
        if (ts.isStringLiteralLike(node.right) && holdsType(node.left)) add(node.right, node.operatorToken.getText());
        else if (ts.isStringLiteralLike(node.left) && holdsType(node.right)) add(node.left, node.operatorToken.getText());
      } else if (ts.isSwitchStatement(node) && holdsType(node.expression)) {
        for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause)) add(clause.expression, 'case');
      }
    }
    out.set(path, names);
  }
  return out;
}

/** A field name a source file passes to `childForFieldName` / `childrenForFieldName`, itself or through a helper. */
interface Field {
  readonly literal: string;
  readonly line: number;
  /** The call it was read from: `childForFieldName`, `childrenForFieldName`, or a helper (`fieldText`). */
  readonly via: string;
}

/** The field names of a source file, and the field arguments the extractor cannot read (`line: text`). */
interface FieldSites {
  readonly fields: Field[];
  readonly unread: string[];
}

/** web-tree-sitter's `Node` methods that take a field name (first argument). */
const FIELD_METHODS = new Set(['childForFieldName', 'childrenForFieldName']);

/**
 * The field names each source file (by path) passes to `childForFieldName` /
 * `childrenForFieldName`, itself or through a helper: a function of `paths` called by name
 * (declared, a method, or the value of a variable or property) with a parameter that reaches
 * such an argument, itself or through another helper (`fieldText(node, field)` in common.ts). A field argument is read as a
 * literal, both branches of `?:` / `??` / `||`, or a `const` of such; a helper's own parameter
 * is checked where the helper is called; anything else is unread.
 */
function extractFieldNames(paths: readonly string[], sources: ReadonlyMap<string, string> = new Map()): Map<string, FieldSites> {
  const program = programOf(paths, sources);
  const checker = program.getTypeChecker();
  const nodes = new Map(paths.map((path) => [path, nodesOf(program.getSourceFile(path)!)]));
  /** The declaration a name means, through imports (`fieldText` in python.ts → its declaration in common.ts). */
  const declarationOf = (name: ts.Node): ts.Declaration | undefined => {
    const symbol = checker.getSymbolAtLocation(name);
    return (symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol)?.valueDeclaration;
  };
  /**
   * What a function is called by: its declaration, or the variable or property it is the value
   * of; none for a function passed as a value (`list.forEach((f) => …)`): no helper.
   */
  const keyOf = (fn: ts.FunctionLikeDeclaration): ts.Node | undefined => {
    if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return fn;
    const holder = fn.parent;
    return ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder) ? holder : undefined;
  };
  /** Helpers: what each is called by → the indexes of its parameters that are field names. */
  const helpers = new Map<ts.Node, Set<number>>();
  /** The indexes of a call's field-name arguments. */
  const fieldArguments = (call: ts.CallExpression): number[] => {
    const callee = call.expression;
    if (ts.isPropertyAccessExpression(callee) && FIELD_METHODS.has(callee.name.text)) return [0];
    const declaration = declarationOf(ts.isPropertyAccessExpression(callee) ? callee.name : callee);
    return [...((declaration && helpers.get(declaration)) ?? [])];
  };
  /** The expressions an argument may evaluate to: both branches of `?:`, both sides of `??` / `||`. */
  const branches = (expression: ts.Expression): ts.Expression[] => {
    let e = expression;
    while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
    if (ts.isConditionalExpression(e)) return [...branches(e.whenTrue), ...branches(e.whenFalse)];
    if (ts.isBinaryExpression(e) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(e.operatorToken.kind)) return [...branches(e.left), ...branches(e.right)];
    return [e];
  };
  const calls = [...nodes.values()].flat().filter(ts.isCallExpression);
  const functions = new Set(
    [...nodes.values()]
      .flat()
      .filter((n): n is ts.FunctionLikeDeclaration => (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n.body !== undefined),
  );
  /** The helper parameter an argument branch is (a parameter of its function, which is a helper for it), or undefined. */
  const parameterOf = (e: ts.Expression): { fn: ts.FunctionLikeDeclaration; index: number } | undefined => {
    const declaration = ts.isIdentifier(e) ? declarationOf(e) : undefined;
    if (!declaration || !ts.isParameter(declaration)) return undefined;
    const fn = declaration.parent as ts.FunctionLikeDeclaration;
    return functions.has(fn) ? { fn, index: fn.parameters.indexOf(declaration) } : undefined;
  };
  // Helpers of helpers: until no call makes a new one.
  for (let grown = true; grown; ) {
    grown = false;
    for (const call of calls) {
      for (const index of fieldArguments(call)) {
        const argument = call.arguments[index];
        for (const branch of argument ? branches(argument) : []) {
          const parameter = parameterOf(branch);
          const key = parameter && keyOf(parameter.fn);
          if (!parameter || !key) continue;
          const indexes = helpers.get(key) ?? new Set<number>();
          if (!indexes.has(parameter.index)) {
            helpers.set(key, indexes.add(parameter.index));
            grown = true;
          }
        }
      }
    }
  }
  const out = new Map<string, FieldSites>();
  for (const path of paths) {
    const source = program.getSourceFile(path)!;
    const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    const sites: FieldSites = { fields: [], unread: [] };
    const read = (e: ts.Expression, via: string, seen: ReadonlySet<ts.Node>): void => {
      for (const branch of branches(e)) {
        if (ts.isStringLiteralLike(branch)) {
          sites.fields.push({ literal: branch.text, line: lineOf(branch), via });
          continue;
        }
        const parameter = parameterOf(branch);
        const key = parameter && keyOf(parameter.fn);
        if (parameter && key && helpers.get(key)?.has(parameter.index)) continue;
        const declaration = ts.isIdentifier(branch) ? declarationOf(branch) : undefined;
        if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const && !seen.has(declaration)) {
          read(declaration.initializer, via, new Set([...seen, declaration]));
        } else sites.unread.push(`${lineOf(branch)}: ${branch.getText()} (${via})`);
      }
    };
    for (const call of nodes.get(path)!.filter(ts.isCallExpression)) {
      const via = ts.isPropertyAccessExpression(call.expression) ? call.expression.name.getText() : call.expression.getText();
      for (const index of fieldArguments(call)) {
        const argument = call.arguments[index];
        if (argument) read(argument, via, new Set());
      }
    }
    out.set(path, sites);
  }
  return out;
}

const files = visitorFiles();
const extracted = extractNodeTypes([...files.keys()]);
const grammars = new Map(BUILTIN_LANGUAGES.map((language) => [language.id, nodeTypesOf(grammarNodeTypesFile(language))]));
const fieldSites = extractFieldNames([...files.keys()]);
const grammarFields = new Map(BUILTIN_LANGUAGES.map((language) => [language.id, fieldsOf(grammarNodeTypesFile(language))]));

/** The edit distance of two names (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * Each field name of `sites` that no grammar of `ids` has, as a message: where, and what the
 * grammars have instead (a field of a close name, with the node types that have it), or that
 * the name is a node type there, or that no node has such a field.
 */
function unknownFields(rel: string, sites: readonly Field[], ids: readonly string[], fields: ReadonlyMap<string, ReadonlyMap<string, string[]>>, types: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const known = (literal: string): boolean => ids.some((id) => fields.get(id)!.has(literal));
  return sites
    .filter((site) => !known(site.literal))
    .map((site) => {
      // The closest fields within a small edit distance (two edits, fewer for short names).
      const close = new Map<string, Set<string>>();
      let best = Infinity;
      for (const id of ids) {
        for (const [field, owners] of fields.get(id)!) {
          const d = distance(field, site.literal);
          if (d > Math.min(2, Math.floor(site.literal.length / 3)) || d > best) continue;
          if (d < best) close.clear();
          best = d;
          close.set(field, new Set([...(close.get(field) ?? []), ...owners]));
        }
      }
      const hint =
        close.size > 0
          ? `the grammar has ${[...close].map(([field, owners]) => `'${field}'${owners.size > 0 ? ` (${[...owners].slice(0, 4).join(', ')}${owners.size > 4 ? ', …' : ''})` : ''}`).join(', ')}`
          : ids.some((id) => types.get(id)!.has(site.literal))
            ? `'${site.literal}' is a node type, no node has such a field`
            : 'no node has such a field';
      return `${rel}:${site.line}: '${site.literal}' (${site.via}) is no field of ${ids.join(' / ')}: ${hint}`;
    });
}

describe('the visitors name only node types their grammars have', () => {
  for (const [file, ids] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const rel = relative(repo, file).replaceAll('\\', '/');
    const names = extracted.get(file)!;
    it(`${rel} (${[...ids].join(', ')}: ${names.length} sites)`, () => {
      const unknown = names.filter((n) => ![...ids].some((id) => grammars.get(id)!.has(n.literal)));
      expect(
        unknown.map((n) => `${rel}:${n.line}: '${n.literal}' (${n.via}) is no node type of ${[...ids].join(' / ')}`),
        `${rel} names node types its grammar${ids.size > 1 ? 's do' : ' does'} not have`,
      ).toEqual([]);
      if (!NO_NODE_TYPES.has(file)) {
        const floor = SMALL_FILES[relative(LANGUAGES, file).replaceAll('\\', '/')] ?? MIN_SITES;
        expect(names.length, `node-type literals found in ${rel} (too few: is the extractor broken?)`).toBeGreaterThanOrEqual(floor);
      }
    });
  }

  it('covers every language and the shared files', () => {
    const reached = new Set([...files.values()].flatMap((ids) => [...ids]));
    expect([...reached].sort()).toEqual(BUILTIN_LANGUAGES.map((l) => l.id).sort());
    expect([...files.get(join(LANGUAGES, 'c-family.ts'))!].sort()).toEqual(['c', 'cpp']);
    expect([...files.get(join(LANGUAGES, 'references/ecmascript.ts'))!].sort()).toEqual(['javascript', 'tsx', 'typescript']);
  });

  it('the extractor reads each construct, and no name set, binding kind or capture name', () => {
    const path = join(repo, 'test/__virtual__/sample.ts');
    const sample = `
      const SCOPES = typeSet('function_definition', 'dict_comprehension');
      const NOT_VALUES = typeSet('int', 'size_t');
      const SEARCHED = [...SCOPES, 'call'];
      function visit(root, sink, found) {
        for (const node of root.descendantsOfType(SEARCHED)) {
          const type = found?.types[0] ?? node.type;
          if (type === 'lambda' || node.parent?.type !== 'block' || NOT_VALUES.has(node.text)) continue;
          switch (node.type) { case 'decorator': break; }
          const kind = SCOPES.has(type) ? 'class' : 'module';
          if (kind === 'module') continue;
          for (const { name: role } of captures) switch (role) { case 'function': break; }
        }
        root.descendantsOfType('identifier');
      }
      function bind(node, t) { if (t === 'for_in_clause') return; }
      bind(null, node.type);
      const typeReceiver = (type) => type === 'Self';
      typeReceiver(b.type.name);
      const options = { classTypes: ['struct_specifier'] };
    `;
    const names = extractNodeTypes([path], new Map([[path, sample]])).get(path)!;
    expect(names.map((n) => n.literal).sort()).toEqual(
      ['block', 'call', 'decorator', 'dict_comprehension', 'for_in_clause', 'function_definition', 'identifier', 'lambda', 'struct_specifier'].sort(),
    );
    expect(nodeTypesOf(grammarNodeTypesFile(BUILTIN_LANGUAGES.find((l) => l.id === 'python')!)).has('dict_comprehension')).toBe(false);
  });
});

describe('the visitors name only field names their grammars have', () => {
  for (const [file, ids] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const rel = relative(repo, file).replaceAll('\\', '/');
    const { fields, unread } = fieldSites.get(file)!;
    it(`${rel} (${[...ids].join(', ')}: ${fields.length} field sites)`, () => {
      expect(unknownFields(rel, fields, [...ids], grammarFields, grammars), `${rel} names fields its grammar${ids.size > 1 ? 's do' : ' does'} not have`).toEqual([]);
      expect(unread, `field arguments in ${rel} the test cannot read (write the name at the call, or teach extractFieldNames)`).toEqual([]);
      if (!NO_FIELDS.has(file)) {
        const floor = SMALL_FIELD_FILES[relative(LANGUAGES, file).replaceAll('\\', '/')] ?? MIN_FIELD_SITES;
        expect(fields.length, `field literals found in ${rel} (too few: is the extractor broken?)`).toBeGreaterThanOrEqual(floor);
      }
    });
  }

  it('the extractor reads each field call and helper, and no other string', () => {
    const path = join(repo, 'test/__virtual__/fields.ts');
    const sample = `
      function fieldText(node, field) { return node.childForFieldName(field)?.text; }
      const nameOf = (node, which) => fieldText(node, which);
      const KEY = 'key';
      class Visitor {
        #children(node, f) { return node.childrenForFieldName(f); }
        visit(node, sink, isLambda) {
          node.childForFieldName('bogus_field');
          node.childForFieldName('return_types');
          node.childForFieldName('block');
          node?.childForFieldName('body');
          this.#children(node, 'arguments');
          fieldText(node, 'name');
          nameOf(node, isLambda ? 'parameters' : 'return_type');
          node.childForFieldName(KEY);
          sink.addFunction(node, { name: 'function' });
          label(node, 'not_a_field');
          node.child('value');
          for (const f of list) node.childForFieldName(f);
          list.forEach((g) => node.childForFieldName(g));
        }
      }
      function label(node, text) { return text + node.type; }
      const byName = { get: (node, field) => fieldText(node, field) };
      byName.get(node, 'alias');
    `;
    const { fields, unread } = extractFieldNames([path], new Map([[path, sample]])).get(path)!;
    expect(fields.map((f) => `${f.literal} (${f.via})`).sort()).toEqual(
      [
        'alias (get)',
        'arguments (#children)',
        'block (childForFieldName)',
        'body (childForFieldName)',
        'bogus_field (childForFieldName)',
        'key (childForFieldName)',
        'name (fieldText)',
        'parameters (nameOf)',
        'return_type (nameOf)',
        'return_types (childForFieldName)',
      ].sort(),
    );
    expect(unread).toEqual(['19: f (childForFieldName)', '20: g (childForFieldName)']);
    const python = BUILTIN_LANGUAGES.find((l) => l.id === 'python')!;
    const pythonFields = new Map([['python', fieldsOf(grammarNodeTypesFile(python))]]);
    expect(unknownFields('sample.ts', fields, ['python'], pythonFields, new Map([['python', nodeTypesOf(grammarNodeTypesFile(python))]]))).toEqual([
      "sample.ts:8: 'bogus_field' (childForFieldName) is no field of python: no node has such a field",
      "sample.ts:9: 'return_types' (childForFieldName) is no field of python: the grammar has 'return_type' (function_definition)",
      "sample.ts:10: 'block' (childForFieldName) is no field of python: 'block' is a node type, no node has such a field",
    ]);
    // The grammar.json fields: Lua's `local_declaration` is in no node type's `fields`.
    expect(fieldsOf(grammarNodeTypesFile(BUILTIN_LANGUAGES.find((l) => l.id === 'lua')!)).get('local_declaration')).toEqual([]);
  });
});
