import type { LanguageGraph } from '../strategy.js';
import { bashGraph } from './bash.js';
import { cGraph } from './c.js';
import { cppGraph } from './cpp.js';
import { ecmascriptGraph } from './ecmascript.js';
import { csharpGraph, javaGraph, kotlinGraph, scalaGraph } from './package-scoped.js';
import { goGraph } from './go.js';
import { luaGraph } from './lua.js';
import { phpGraph } from './php.js';
import { pythonGraph } from './python.js';
import { rubyGraph } from './ruby.js';
import { rustGraph } from './rust.js';

/**
 * The rules for a language without graph rules of its own: its module is its file path
 * (without extension), names join with `.`, and no import can be followed, so only calls within
 * a file resolve.
 */
export const defaultGraph: LanguageGraph = {
  family: 'default',
  moduleName: (relativePath) => relativePath.replace(/\.[^./]+$/, ''),
  qualify: (module, chain) => [module, ...chain].join('.'),
  importTargets: () => [],
  builtins: new Set(),
  constructorNames: () => [],
  exportsOnly: false,
  submodulesAreMembers: false,
};

const BUILT_IN: Readonly<Record<string, LanguageGraph>> = {
  python: pythonGraph,
  javascript: ecmascriptGraph,
  typescript: ecmascriptGraph,
  tsx: ecmascriptGraph,
  java: javaGraph,
  kotlin: kotlinGraph,
  scala: scalaGraph,
  c_sharp: csharpGraph,
  go: goGraph,
  rust: rustGraph,
  php: phpGraph,
  ruby: rubyGraph,
  lua: luaGraph,
  bash: bashGraph,
  c: cGraph,
  cpp: cppGraph,
};

/** The graph rules of a language id (built-in rules, else the default ones). */
export function graphStrategyFor(languageId: string): LanguageGraph {
  return BUILT_IN[languageId] ?? { ...defaultGraph, family: `default:${languageId}` };
}
