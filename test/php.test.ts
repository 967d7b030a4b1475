import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

const lines = (...items: string[]): string => items.map((l) => `- ${l}`).join('\n');

describe('php visitor', () => {
  it('is registered for .php files', () => {
    expect(createDefaultRegistry().forPath('/repo/src/Cart.php')?.id).toBe('php');
  });

  it('extracts classes, interfaces, traits, enums, methods and nested functions with exact ranges', async () => {
    const { rows, db } = await extractRows('shop.php', fixture('php/shop.php'));
    try {
      expect(rows).toEqual([
        // The `#[Entity]` attribute (line 9) is inside the class node, the doc comment is not.
        { kind: 'class', name: 'Cart', lines: '9-46' },
        { kind: 'method', name: '__construct', lines: '18-20', parent: 'Cart' },
        { kind: 'method', name: 'count', lines: '22-26', parent: 'Cart' },
        { kind: 'method', name: 'load', lines: '28-37', parent: 'Cart' },
        { kind: 'function', name: 'cart_helper', lines: '31-31', parent: 'load' },
        // Closures are transparent: the function inside one belongs to the method around it.
        { kind: 'function', name: 'inside_closure', lines: '33-33', parent: 'load' },
        { kind: 'method', name: 'exporter', lines: '39-45', parent: 'Cart' },
        // Anonymous-class methods are not Cart's: functions of the method that writes `new class`.
        { kind: 'function', name: '__construct', lines: '42-42', parent: 'exporter' },
        { kind: 'function', name: 'export', lines: '43-43', parent: 'exporter' },
        { kind: 'class', name: 'Countable', lines: '48-51' },
        { kind: 'method', name: 'count', lines: '50-50', parent: 'Countable' },
        { kind: 'class', name: 'Discounts', lines: '53-61' },
        { kind: 'method', name: 'discount', lines: '57-60', parent: 'Discounts' },
        { kind: 'class', name: 'Status', lines: '63-72' },
        { kind: 'method', name: 'label', lines: '68-71', parent: 'Status' },
        { kind: 'class', name: 'Model', lines: '74-77' },
        { kind: 'method', name: 'table', lines: '76-76', parent: 'Model' },
        { kind: 'function', name: 'format_price', lines: '79-83' },
        { kind: 'function', name: 'nested_format', lines: '81-81', parent: 'format_price' },
        { kind: 'function', name: 'legacy', lines: '86-86' },
        // A second `<?php … ?>` island after HTML text.
        { kind: 'function', name: 'late_helper', lines: '90-90' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises properties, constants, cases, promoted parameters and method headers', async () => {
    const { db } = await extractRows('shop.php', fixture('php/shop.php'));
    try {
      const [cart] = await db.queryClass('Cart');
      expect(cart?.fields).toBe(
        lines('public const MAX_ITEMS = 50', 'private array $items = []', 'protected ?string $owner = null, $note', 'private readonly int $id'),
      );
      expect(cart?.methods).toBe(
        lines(
          'public function __construct(private readonly int $id, string $plain)',
          'public function count(): int',
          'public static function load(int $id,): self',
          'public function exporter(): object',
        ),
      );
      expect(cart?.body.startsWith('#[Entity(table: "carts")]\nfinal class Cart')).toBe(true);
      const [status] = await db.queryClass('Status');
      expect(status?.fields).toBe(lines("case Open = 'open'", "case Paid = 'paid'"));
      expect(status?.methods).toBe(lines('public function label(): string'));
      const [model] = await db.queryClass('Model');
      expect(model?.fields).toBeUndefined();
      expect(model?.methods).toBe(lines('abstract protected function table(): string'));
      const [discounts] = await db.queryClass('Discounts');
      expect(discounts?.fields).toBe(lines('private float $rate = 0.0'));
      const counts = await db.queryFunction('count', 'class_method');
      expect(counts.map((m) => `${m.parentClass}:${m.startLine}`)).toEqual(['Cart:22', 'Countable:50']);
      expect((await db.queryFunction('export', 'class_method')).length).toBe(0);
      const [exported] = await db.queryFunction('export');
      expect(exported?.parentFunction).toBe('exporter');
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside the ERROR regions of a broken file', async () => {
    const { rows, db } = await extractRows('broken.php', fixture('php/broken.php'));
    try {
      expect(rows).toEqual([
        { kind: 'class', name: 'Before', lines: '2-8' },
        { kind: 'method', name: 'check', lines: '4-7', parent: 'Before' },
        { kind: 'function', name: 'after', lines: '12-15' },
        { kind: 'class', name: 'Later', lines: '17-20' },
        { kind: 'method', name: 'run', lines: '19-19', parent: 'Later' },
      ]);
    } finally {
      db.close();
    }
  });
});
