#!/usr/bin/env python3
"""Facts about Python files from Python's own parser (the `ast` module), for the token-economy
benchmark (scripts/bench-tokens.mjs) to check ckg-wasm's locations against an independent source.

Reads a JSON request on stdin: {"root": "...", "defs": [names], "calls": [names], "outlines": [relative paths]}
Writes JSON: {"defs": {name: [[file, line, "function" | "method" | "class"], ...]}, "calls": {name: [[file, line], ...]},
              "outlines": {path: [[kind, name, line, end_line], ...]}}
"""
import ast
import json
import os
import sys


def python_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(folder, f)


def main():
    request = json.load(sys.stdin)
    root = request["root"]
    want_defs = set(request.get("defs", []))
    want_calls = set(request.get("calls", []))
    defs = {n: [] for n in want_defs}
    calls = {n: [] for n in want_calls}
    outlines = {}
    wanted_outlines = set(request.get("outlines", []))
    for path in python_files(root):
        rel = os.path.relpath(path, root)
        try:
            with open(path, "rb") as fh:
                tree = ast.parse(fh.read(), filename=path)
        except (SyntaxError, ValueError):
            continue
        outline = [] if rel in wanted_outlines else None
        # Names this file binds to a wanted name by `from m import name as alias`.
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name in want_calls and a.asname:
                        aliases[a.asname] = a.name
        methods = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods.update(id(c) for c in node.body if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name in want_defs:
                    kind = "class" if isinstance(node, ast.ClassDef) else "method" if id(node) in methods else "function"
                    defs[node.name].append([path, node.lineno, kind])
                if outline is not None:
                    kind = "class" if isinstance(node, ast.ClassDef) else "def"
                    outline.append([kind, node.name, node.lineno, node.end_lineno])
            elif isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if isinstance(f, ast.Name) and name in aliases:
                    name = aliases[name]
                if name in want_calls:
                    # The line of the called name's token (an attribute's name sits at its end).
                    line = f.end_lineno if isinstance(f, ast.Attribute) else f.lineno
                    calls[name].append([path, line])
        if outline is not None:
            outlines[rel] = sorted(outline, key=lambda e: (e[2], e[3]))
    json.dump({"defs": defs, "calls": calls, "outlines": outlines}, sys.stdout)


if __name__ == "__main__":
    main()
