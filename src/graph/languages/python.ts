import type { LanguageGraph, NamingContext } from '../strategy.js';

// Python's module names follow its import system: `pkg/mod.py` is `pkg.mod`, `pkg/__init__.py`
// is `pkg`; when the codebase root is itself a package (it holds `__init__.py`, as Django's
// folder does) its name leads every module name (`django.db.models`), so absolute imports in
// the codebase's own spelling resolve.

/** Names Python binds in every module (the `builtins` module). */
const BUILTINS = new Set(
  (
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex ' +
    'copyright credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals ' +
    'hasattr hash help hex id input int isinstance issubclass iter len license list locals map max memoryview min ' +
    'next object oct open ord pow print property quit range repr reversed round set setattr slice sorted staticmethod ' +
    'str sum super tuple type vars zip __import__ __build_class__ NotImplemented Ellipsis ' +
    'BaseException BaseExceptionGroup Exception ExceptionGroup ArithmeticError AssertionError AttributeError BlockingIOError ' +
    'BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ' +
    'ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError EncodingWarning EnvironmentError ' +
    'FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning ' +
    'IndentationError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ' +
    'ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError ' +
    'PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning ' +
    'RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit ' +
    'TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError ' +
    'UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError'
  ).split(' '),
);

function moduleName(relativePath: string, context: NamingContext): string {
  const parts = relativePath.replace(/\.pyi?$/, '').split('/');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  if (context.rootIsPythonPackage) parts.unshift(context.rootName);
  return parts.join('.');
}

/** The package a module's relative imports start from: itself for a package's `__init__`, else its parent. */
function packageOf(fromModule: string, fromRelativePath: string): string[] {
  const parts = fromModule === '' ? [] : fromModule.split('.');
  return /(^|\/)__init__\.pyi?$/.test(fromRelativePath) ? parts : parts.slice(0, -1);
}

function importTargets(specifier: string, fromModule: string, fromRelativePath: string): readonly string[] {
  const dots = /^\.*/.exec(specifier)![0].length;
  if (dots === 0) return [specifier];
  const base = packageOf(fromModule, fromRelativePath);
  // Each dot after the first climbs one package; climbing above the top leaves the codebase.
  if (dots - 1 > base.length) return [];
  const up = base.slice(0, base.length - (dots - 1));
  const rest = specifier.slice(dots);
  return [[...up, ...(rest === '' ? [] : rest.split('.'))].join('.')];
}

/**
 * Python's graph rules.
 *
 * @example
 * ```ts
 * pythonGraph.importTargets('..utils', 'app.views.admin', 'app/views/admin.py'); // ['app.utils']
 * ```
 */
export const pythonGraph: LanguageGraph = {
  instanceAttributes: true,
  family: 'python',
  moduleName,
  namingKey: (context) => (context.rootIsPythonPackage ? `package-root=${context.rootName}` : ''),
  qualify: (module, chain) => [module, ...chain].filter((p) => p !== '').join('.'),
  importTargets,
  pickModule: (candidates) => {
    // `mod.py` beside its stub `mod.pyi`: the implementation.
    const real = candidates.map((c, i) => (c.path.endsWith('.py') ? i : -1)).filter((i) => i >= 0);
    return real.length === 1 ? real[0] : undefined;
  },
  builtins: BUILTINS,
  constructorNames: () => ['__init__'],
  exportsOnly: false,
  isPrivateName: (name) => name.startsWith('_'),
  submodulesAreMembers: true,
  linearisedBases: true,
  constructsByCall: true,
  untypedBuiltinResults: new Set(['getattr', 'next', 'anext', 'iter', 'aiter', 'max', 'min', 'sum', 'abs', 'round', 'pow', 'divmod', 'eval', 'type', '__import__']),
  valuesReexported: true,
  returnTypes: true,
  missingMemberHook: '__getattr__',
};
