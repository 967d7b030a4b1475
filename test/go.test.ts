import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

const lines = (...items: string[]): string => items.map((l) => `- ${l}`).join('\n');

describe('go visitor', () => {
  it('is registered for .go files', () => {
    expect(createDefaultRegistry().forPath('/repo/cmd/main.go')?.id).toBe('go');
  });

  it('extracts functions, receiver methods, struct and interface types with exact ranges', async () => {
    const { rows, db } = await extractRows('server.go', fixture('go/server.go'));
    try {
      expect(rows).toEqual([
        // Every defined type is a class (`type Level int` too); an alias (`type Alias = Server`,
        // line 52) is not one; the func literal in Start (line 21) has no name.
        { kind: 'class', name: 'Level', lines: '10-10' },
        { kind: 'class', name: 'Server', lines: '13-17' },
        { kind: 'method', name: 'Start', lines: '20-26', parent: 'Server' },
        { kind: 'method', name: 'Port', lines: '28-28', parent: 'Server' },
        { kind: 'class', name: 'Stack', lines: '30-32' },
        { kind: 'method', name: 'Push', lines: '34-34', parent: 'Stack' },
        { kind: 'method', name: 'Len', lines: '36-40', parent: 'Stack' },
        // Inside `type ( … )` each type spans its own spec, not the group (42-50).
        { kind: 'class', name: 'Handler', lines: '43-47' },
        { kind: 'method', name: 'Serve', lines: '45-45', parent: 'Handler' },
        { kind: 'method', name: 'Name', lines: '46-46', parent: 'Handler' },
        { kind: 'class', name: 'Option', lines: '48-48' },
        { kind: 'class', name: 'point', lines: '49-49' },
        { kind: 'function', name: 'NewServer', lines: '54-60' },
        { kind: 'class', name: 'config', lines: '55-57' },
        { kind: 'function', name: 'Map', lines: '62-64' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises struct fields and same-file methods, interface embeds and method specs', async () => {
    const { db } = await extractRows('server.go', fixture('go/server.go'));
    try {
      const [server] = await db.queryClass('Server');
      expect(server?.fields).toBe(lines('Name string `json:"name"`', '*Logger', 'port, backlog int'));
      expect(server?.methods).toBe(lines('Start(ctx context.Context) error', 'Port() int'));
      // A lone declaration's body starts at `type`; the doc comment above is outside.
      expect(server?.body.startsWith('type Server struct {')).toBe(true);
      const [stack] = await db.queryClass('Stack');
      expect(stack?.methods).toBe(lines('Push(v T)', 'Len(extra int,) (n int, err error)'));
      const [handler] = await db.queryClass('Handler');
      expect(handler?.fields).toBe(lines('io.Closer'));
      expect(handler?.methods).toBe(lines('Serve(ctx context.Context, req string) (string, error)', 'Name() string'));
      expect(handler?.body.startsWith('Handler interface {')).toBe(true);
      const [point] = await db.queryClass('point');
      expect(point?.methods).toBeUndefined();
      // A defined type of another kind: a class without fields, its body the declaration.
      const [level] = await db.queryClass('Level');
      expect(level?.body).toBe('type Level int');
      expect(level?.fields).toBeUndefined();
      expect((await db.queryClass('Option'))[0]?.body).toBe('Option func(*Server)');
      expect(await db.queryClass('Alias')).toEqual([]);
      // Methods are class methods, not functions; interface specs are found beside them.
      expect(await db.queryFunction('Start')).toEqual([]);
      const names = await db.queryFunction('Name', 'class_method');
      expect(names.map((m) => `${m.parentClass}:${m.startLine}`)).toEqual(['Handler:46']);
      const [len] = await db.queryFunction('Len', 'class_method');
      expect(len?.body.startsWith('func (Stack[T]) Len(')).toBe(true);
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside the ERROR regions of a broken file', async () => {
    const { rows, db } = await extractRows('broken.go', fixture('go/broken.go'));
    try {
      expect(rows).toEqual([
        { kind: 'class', name: 'Before', lines: '3-5' },
        { kind: 'method', name: 'Check', lines: '7-9', parent: 'Before' },
        { kind: 'function', name: 'After', lines: '13-15' },
        { kind: 'class', name: 'Later', lines: '17-19' },
        { kind: 'method', name: 'Run', lines: '18-18', parent: 'Later' },
      ]);
    } finally {
      db.close();
    }
  });
});
