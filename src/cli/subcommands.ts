// The CLI names of the ckg tool's commands (one table: the CLI registers what the tool has).

/**
 * The CLI's query subcommands, each one command of the `ckg` tool. Entries whose command is not
 * in the tool's table (yet) are not registered: they appear when the command lands.
 */
export const CLI_COMMANDS: readonly { readonly cli: string; readonly command: string }[] = [
  { cli: 'function', command: 'search_function' },
  { cli: 'class', command: 'search_class' },
  { cli: 'method', command: 'search_class_method' },
  { cli: 'callers', command: 'find_callers' },
  { cli: 'callees', command: 'find_callees' },
  { cli: 'trace', command: 'trace_path' },
  { cli: 'hierarchy', command: 'class_hierarchy' },
  { cli: 'dead-code', command: 'dead_code' },
  { cli: 'symbols', command: 'search_symbols' },
  { cli: 'outline', command: 'file_outline' },
  { cli: 'grep', command: 'grep' },
  { cli: 'glob', command: 'glob' },
];
