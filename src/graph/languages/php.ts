import type { FallbackLookup, FallbackOutcome, FallbackSite, LanguageGraph } from '../strategy.js';

// PHP: a file's module is the namespace it declares (`namespace App\Models;`), shared by every
// file that declares it; a file without one is in the global namespace (`\`), and a file with
// several namespace blocks is a module of its own (named by its path, its definitions carry their
// block's namespace). Names join as PHP writes them: `App\Models\User` for a class or function,
// `App\Models\User::save` for a method. Imports name namespaces, classes and functions by full
// name (`use App\Models\User`, `use function App\Util\slug`); the reference visitor writes every
// qualified name out in full, so only plain names are left to the graph's scopes. An unqualified
// function name not found in its namespace falls back to the global namespace, as PHP's does;
// class names never do.

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter((w) => w !== ''));

/** Functions and classes of PHP's core and bundled extensions that code calls without importing (the common ones). */
const BUILTINS = words(`
  array array_change_key_case array_chunk array_column array_combine array_count_values array_diff array_diff_assoc
  array_diff_key array_fill array_fill_keys array_filter array_flip array_intersect array_intersect_key array_is_list
  array_key_exists array_key_first array_key_last array_keys array_map array_merge array_merge_recursive array_pad
  array_pop array_product array_push array_rand array_reduce array_replace array_replace_recursive array_reverse
  array_search array_shift array_slice array_splice array_sum array_unique array_unshift array_values array_walk
  array_walk_recursive arsort asort compact count current end extract in_array key krsort ksort list natcasesort natsort
  next prev range reset rsort shuffle sort uasort uksort usort each
  addslashes bin2hex chr chunk_split explode implode join lcfirst ltrim md5 nl2br number_format ord rtrim sha1 sprintf
  vsprintf printf vprintf fprintf sscanf str_contains str_ends_with str_starts_with str_pad str_repeat str_replace
  str_ireplace str_split str_word_count strcasecmp strcmp strncmp strncasecmp strip_tags stripslashes stripos stristr
  strlen strnatcmp strnatcasecmp strpbrk strpos strrchr strrev strripos strrpos strspn strcspn strstr strtolower
  strtoupper strtr substr substr_compare substr_count substr_replace trim ucfirst ucwords wordwrap htmlspecialchars
  htmlspecialchars_decode html_entity_decode htmlentities nl_langinfo quotemeta setlocale similar_text soundex metaphone
  levenshtein mb_strlen mb_substr mb_strtolower mb_strtoupper mb_strpos mb_str_split mb_convert_encoding mb_check_encoding
  mb_internal_encoding mb_strwidth iconv preg_match preg_match_all preg_replace preg_replace_callback preg_split
  preg_quote preg_grep preg_last_error preg_last_error_msg
  abs ceil floor fmod intdiv max min pow round sqrt rand mt_rand random_int random_bytes mt_srand srand pi log exp
  is_array is_bool is_callable is_countable is_float is_int is_integer is_iterable is_null is_numeric is_object
  is_resource is_scalar is_string is_a is_subclass_of intval floatval boolval strval settype gettype get_debug_type
  var_dump var_export print_r serialize unserialize json_encode json_decode json_last_error json_last_error_msg
  isset unset empty die exit echo print eval define defined constant function_exists method_exists property_exists
  class_exists interface_exists trait_exists enum_exists get_class get_parent_class get_object_vars get_class_methods
  spl_autoload_register spl_object_hash spl_object_id iterator_to_array iterator_count call_user_func
  call_user_func_array func_get_args func_get_arg func_num_args is_dir is_file file_exists file_get_contents
  file_put_contents fopen fclose fread fwrite fgets feof fflush file unlink mkdir rmdir rename copy touch realpath
  basename dirname pathinfo glob scandir tempnam sys_get_temp_dir getcwd chdir chmod filemtime filesize is_readable
  is_writable fseek ftell rewind stream_get_contents ob_start ob_get_clean ob_end_clean ob_get_contents
  time microtime hrtime date gmdate mktime strtotime checkdate date_default_timezone_set date_default_timezone_get
  usleep sleep uniqid getenv putenv ini_get ini_set set_error_handler restore_error_handler set_exception_handler
  trigger_error error_reporting error_log assert header headers_sent http_build_query parse_str parse_url urlencode
  urldecode rawurlencode rawurldecode base64_encode base64_decode hash hash_hmac crc32 md5_file sha1_file password_hash
  password_verify version_compare phpversion php_sapi_name extension_loaded function_exists gc_collect_cycles
  array_key_exists spl_autoload_unregister debug_backtrace array_flip ctype_digit ctype_alpha ctype_alnum ctype_space
  ctype_upper ctype_lower ctype_xdigit ctype_punct filter_var
  Exception ErrorException Error TypeError ValueError ArithmeticError DivisionByZeroError ArgumentCountError
  RuntimeException LogicException InvalidArgumentException DomainException LengthException OutOfRangeException
  OutOfBoundsException RangeException OverflowException UnderflowException UnexpectedValueException BadFunctionCallException
  BadMethodCallException JsonException Throwable Stringable Traversable Iterator IteratorAggregate ArrayAccess Countable
  Serializable JsonSerializable Closure Generator stdClass ArrayObject ArrayIterator SplObjectStorage SplStack SplQueue
  SplFixedArray SplFileInfo SplFileObject SplPriorityQueue SplHeap SplMinHeap SplMaxHeap SplDoublyLinkedList
  DateTime DateTimeImmutable DateTimeInterface DateTimeZone DateInterval DatePeriod WeakMap WeakReference
  ReflectionClass ReflectionMethod ReflectionProperty ReflectionFunction ReflectionNamedType ReflectionObject
  ReflectionException IteratorIterator RecursiveIteratorIterator RecursiveArrayIterator RecursiveDirectoryIterator
  DirectoryIterator FilesystemIterator GlobIterator CallbackFilterIterator LimitIterator AppendIterator
  EmptyIterator InfiniteIterator NoRewindIterator MultipleIterator RegexIterator CachingIterator FilterIterator PDO
  PDOException PDOStatement DOMDocument DOMElement DOMXPath SimpleXMLElement XMLReader XMLWriter UnitEnum BackedEnum`);

/** The global namespace's module name. */
const GLOBAL = '\\';

/** A file's module: its namespace, `\` for the global one, its path for a file of several (`/` declared). */
function moduleName(relativePath: string, _context: unknown, declaredPackage?: string): string {
  if (declaredPackage === undefined) return GLOBAL;
  return declaredPackage === '/' ? `/${relativePath}` : declaredPackage;
}

/**
 * `App\Models` + `User`, `save` → `App\Models\User::save`. In a file of several namespaces the
 * chain starts with its block's namespace, written with a leading backslash.
 */
function qualify(module: string, chain: readonly string[]): string {
  let namespace = module.startsWith('/') || module === GLOBAL ? '' : module;
  let rest = chain;
  if (rest[0]?.startsWith('\\')) {
    namespace = rest[0].slice(1);
    rest = rest.slice(1);
  }
  if (rest.length === 0) return namespace === '' ? module : namespace;
  const first = namespace === '' ? rest[0]! : `${namespace}\\${rest[0]!}`;
  return [first, ...rest.slice(1)].join('::');
}

/**
 * An unqualified function name its namespace does not define is the global namespace's (PHP's
 * fallback for functions and constants; classes have none).
 */
function fallback(name: string, site: FallbackSite, lookup?: FallbackLookup): FallbackOutcome | undefined {
  // `\strlen()`: the global namespace holds no such function, PHP does.
  if (lookup?.module !== undefined) return lookup.module.name === GLOBAL && BUILTINS.has(name) ? { toId: null, reason: 'builtin' } : undefined;
  if (lookup?.want === 'type' || lookup?.qualifier !== undefined || site.file.moduleName === GLOBAL) return undefined;
  const globals = new Set(site.modulesNamed(GLOBAL).map((m) => m.moduleId));
  if (globals.size === 0) return undefined;
  const found = site.named(name).filter((s) => s.kind === 'function' && s.parentId !== null && globals.has(s.parentId));
  if (found.length === 1) return { toId: found[0]!.id, resolution: 'global' };
  return found.length > 1 ? { toId: null, reason: 'ambiguous' } : undefined;
}

/**
 * PHP's graph rules.
 *
 * @example
 * ```ts
 * phpGraph.qualify('App\\Models', ['User', 'save']); // 'App\\Models\\User::save'
 * ```
 */
export const phpGraph: LanguageGraph = {
  family: 'php',
  moduleName,
  qualify,
  // `''` (the head of `\strlen`) is the global namespace.
  importTargets: (specifier) => [specifier.replace(/^\\/, '') || GLOBAL],
  builtins: BUILTINS,
  constructorNames: () => ['__construct'],
  exportsOnly: false,
  submodulesAreMembers: false,
  sharedModules: true,
  memberImports: true,
  pathSeparator: '\\',
  qualifiedNames: true,
  fallback,
};
