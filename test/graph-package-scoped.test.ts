// Resolution rules of the package-scoped languages (Java, Kotlin, Scala, C#) that the shop
// fixtures do not reach, each on the smallest codebase that shows it.
import { describe, expect, it } from 'vitest';
import { openGraph } from './helpers/graph.js';

async function callsOf(files: Record<string, string>, name: string): Promise<string[]> {
  const graph = await openGraph(files);
  try {
    return await graph.lines({ kind: 'calls', toName: name });
  } finally {
    graph.close();
  }
}

describe('package-scoped code graph rules', () => {
  it("keeps a package's imports to the file that wrote them", async () => {
    // r.B sees p's classes through `p.*`, not the classes p/A.java imports.
    const files = {
      'p/A.java': 'package p;\nimport q.Util;\npublic class A {}\n',
      'q/Util.java': 'package q;\npublic class Util {\n  public static void f() {}\n}\n',
      'r/B.java': 'package r;\nimport p.*;\nclass B {\n  void m() {\n    Util.f();\n  }\n}\n',
    };
    expect(await callsOf(files, 'f')).toEqual(['r/B.java:5 calls r.B.m -> ∅ [f] unresolved:not-found']);
  });

  it("does not take an anonymous class's method in a field initializer for a member of the class", async () => {
    const files = {
      'p/A.java': 'package p;\nclass A {\n  Runnable r = new Runnable() {\n    public void run() {}\n  };\n  void m() {\n    run();\n  }\n}\n',
    };
    expect(await callsOf(files, 'run')).toEqual(['p/A.java:7 calls p.A.m -> ∅ [run] unresolved:not-found']);
  });

  it('resolves an import of a Kotlin top-level function and calls through it', async () => {
    const files = {
      'a/Util.kt': 'package a\n\nfun greet(name: String): String = name\n',
      'b/Main.kt': 'package b\n\nimport a.greet\n\nfun main() {\n    greet("x")\n}\n',
    };
    const graph = await openGraph(files);
    try {
      expect(await graph.lines({ kind: ['imports', 'calls'] })).toEqual([
        'b/Main.kt:3 imports b -> a.greet [a.greet] import',
        'b/Main.kt:6 calls b.main -> a.greet [greet] import',
      ]);
    } finally {
      graph.close();
    }
  });

  it('gives a C# file with types in two namespaces a module of its own', async () => {
    // Mixed.cs holds Acme.B and Acme.C: another file of Acme.B finds neither its Thing nor (rightly)
    // Acme.C's Helper; the enclosing namespace Acme, which no file declares, is outside the codebase.
    const files = {
      'Mixed.cs': 'namespace Acme.B { public class Thing { } }\nnamespace Acme.C { public static class Helper { public static void Run() { } } }\n',
      'Other.cs': 'namespace Acme.B {\n  public class User {\n    public void M() { Helper.Run(); new Thing(); }\n  }\n}\n',
    };
    const graph = await openGraph(files);
    try {
      expect(await graph.lines({ kind: 'calls', filePath: 'Other.cs' })).toEqual([
        'Other.cs:3 calls Acme.B.User.M -> ∅ [Run] unresolved:external',
        'Other.cs:3 calls Acme.B.User.M -> ∅ [Thing] unresolved:external',
      ]);
      expect((await graph.db.edges({ kind: 'contains', filePath: 'Mixed.cs' })).map((e) => e.to?.qualifiedName)).toEqual(['Acme.C.Helper.Run']);
    } finally {
      graph.close();
    }
  });
});
