import type { FallbackLookup, FallbackOutcome, FallbackSite, LanguageGraph } from '../strategy.js';

// Ruby: a file's module is its path without `.rb` (`lib/shop/catalog`), which is what `require`
// names; classes, modules and top-level methods are global, named by their constant path
// (`Shop::Catalog`, `Shop::Catalog#add`, `helper`) whatever file defines them. A class reopened
// in several places (or files) is one class (`openClasses`): its methods are every definition's,
// found by qualified name. Constants are looked up lexically (the enclosing classes and modules,
// then the file's top level), then among the top-level constants of every file; `require 'x'`
// and `require_relative 'x'` are imports of files (`lib/` folders are the load path), but do not
// limit what a file sees: Ruby's constants do not depend on them.

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter((w) => w !== ''));

/** Kernel, Object and Module methods called on `self`, and core classes and modules. */
const BUILTINS = words(`
  puts print p pp printf sprintf format putc gets require require_relative load autoload raise fail loop lambda proc
  block_given? catch throw sleep rand srand exit exit! abort at_exit system spawn exec fork trap caller caller_locations
  binding eval instance_eval instance_exec class_eval module_eval class_exec module_exec instance_variable_get
  instance_variable_set instance_variable_defined? instance_variables define_method define_singleton_method method
  methods public_method singleton_method respond_to? respond_to_missing? send public_send __send__ tap then yield_self
  freeze frozen? dup clone itself object_id hash inspect to_s class singleton_class is_a? kind_of? instance_of? nil?
  extend include prepend attr attr_reader attr_writer attr_accessor private public protected module_function
  private_constant public_constant private_class_method public_class_method alias_method remove_method undef_method
  const_get const_set const_defined? constants name ancestors included_modules instance_methods method_defined?
  private_method_defined? public_method_defined? protected_method_defined? new allocate superclass warn open Integer
  Float String Array Hash Rational Complex at_exit __method__ __dir__ local_variables global_variables gsub sub chomp
  chop select
  Object BasicObject Module Class Kernel Comparable Enumerable Enumerator Struct Data Array Hash String Symbol Integer
  Float Numeric Rational Complex Range Regexp MatchData Proc Method UnboundMethod NilClass TrueClass FalseClass Time
  IO File Dir FileTest Process Signal Thread Mutex Queue ConditionVariable Fiber Marshal ObjectSpace GC Math Random
  Encoding Exception StandardError RuntimeError ArgumentError TypeError NameError NoMethodError ZeroDivisionError
  IndexError KeyError RangeError StopIteration IOError EOFError SystemExit Interrupt SignalException ScriptError
  LoadError NotImplementedError SyntaxError SecurityError FrozenError FloatDomainError LocalJumpError FiberError
  ThreadError RegexpError EncodingError SystemCallError Errno Warning ENV ARGV ARGF STDIN STDOUT STDERR RUBY_VERSION
  Set Pathname JSON YAML Logger Date DateTime Forwardable Singleton Observable OpenStruct SecureRandom Digest Base64
  StringIO Tempfile FileUtils Benchmark Timeout URI Net Open3 ERB OptionParser Shellwords CSV BigDecimal`);

function moduleName(relativePath: string): string {
  return relativePath.replace(/\.rb$/, '');
}

/** A constant's name (`Foo`) rather than a method's (`foo`, `foo?`, `[]`). */
const isConstant = (name: string): boolean => /^\p{Lu}/u.test(name);

/** `Shop` + `Catalog` → `Shop::Catalog`, a method → `Shop::Catalog#add`, a top-level method → `helper`. */
function qualify(module: string, chain: readonly string[]): string {
  if (chain.length === 0) return module;
  let out = chain[0]!;
  for (const part of chain.slice(1)) out += `${isConstant(part) ? '::' : '#'}${part}`;
  return out;
}

function dirname(path: string): string[] {
  const parts = path.split('/');
  parts.pop();
  return parts;
}

/**
 * The files `require` and `require_relative` may mean: a relative path (`./x`, `../x`; a
 * `require_relative` is written with `./`) from the requiring file's folder; any other path from
 * the `lib/` folders of the requiring file's path, the root's `lib/`, then the root.
 */
function importTargets(specifier: string, fromModule: string): readonly string[] {
  const spec = specifier.replace(/\.rb$/, '');
  if (spec.startsWith('./') || spec.startsWith('../')) {
    const out = dirname(fromModule);
    for (const part of spec.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (out.length === 0) return [];
        out.pop();
      } else out.push(part);
    }
    return out.length === 0 ? [] : [out.join('/')];
  }
  if (spec.startsWith('/')) return [];
  const parts = fromModule.split('/');
  const out: string[] = [];
  for (let i = parts.length - 2; i >= 0; i--) if (parts[i] === 'lib') out.push(`${parts.slice(0, i + 1).join('/')}/${spec}`);
  out.push(`lib/${spec}`, spec);
  return [...new Set(out)];
}

/**
 * What no enclosing class or the file itself defines: a top-level constant (class or module) of
 * that name in any file, or a top-level method (`::Foo` asks the top level only).
 */
function fallback(name: string, site: FallbackSite, lookup?: FallbackLookup): FallbackOutcome | undefined {
  if (lookup?.qualifier !== undefined || lookup?.module !== undefined) return undefined;
  const top = name.startsWith('::') ? name.slice(2) : name;
  const candidates = site.named(top).filter((s) => s.language === 'ruby' && s.qualifiedName === top && (s.kind === 'class' || (s.kind === 'function' && lookup?.want !== 'type')));
  if (candidates.length === 0) return name === top ? undefined : { toId: null, reason: BUILTINS.has(top) ? 'builtin' : 'not-found' };
  const classes = candidates.filter((s) => s.kind === 'class');
  // Reopenings of one class are one class (the resolver takes its first definition); two top-level methods of one name are two.
  if (classes.length === candidates.length) return { toId: classes[0]!.id, resolution: 'global' };
  return candidates.length === 1 ? { toId: candidates[0]!.id, resolution: 'global' } : { toId: null, reason: 'ambiguous' };
}

/**
 * Ruby's graph rules.
 *
 * @example
 * ```ts
 * rubyGraph.qualify('lib/shop/catalog', ['Shop', 'Catalog', 'add']); // 'Shop::Catalog#add'
 * ```
 */
export const rubyGraph: LanguageGraph = {
  family: 'ruby',
  moduleName,
  qualify,
  importTargets,
  builtins: BUILTINS,
  constructorNames: () => ['initialize'],
  exportsOnly: false,
  submodulesAreMembers: false,
  implicitMembers: true,
  openClasses: true,
  implicitSelf: true,
  fallback,
};
