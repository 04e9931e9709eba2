#!/usr/bin/env python3
"""The shared libraries export their API and nothing else (CTest
`package_symbols`, label `consumer`; README "Embedding").

Usage: symbols.py INCLUDE_DIR... -- LIBRARY...

Lists each library's defined dynamic symbols (nm -D, demangled) and fails on
any that is not one of: a C API function declared in spark/nav_c.h
(spark_nav_*), a C++ symbol of namespace spark (functions, data, and the
typeinfo and vtables of its classes) whose name a public header declares.
Standard library code (std::, __gnu_cxx::), XXH*, glm and nlohmann symbols
fail it. Every function of spark/nav_c.h must be exported by libspark_nav.
Prints the counts by kind."""

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

args = sys.argv[1:]
split = args.index("--")
include_dirs, libraries = [Path(p) for p in args[:split]], args[split + 1:]
headers = "\n".join(p.read_text() for d in include_dirs for p in d.rglob("*.h"))
nav_c = "\n".join(p.read_text() for d in include_dirs for p in d.rglob("nav_c.h"))
c_api = set(re.findall(r"\b(spark_nav_[a-z0-9_]+)\s*\(", nav_c))
declared_words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", headers))
SPECIAL = re.compile(r"^(typeinfo|typeinfo name|vtable|VTT|guard variable|construction vtable) for (.*)$")


def last_name(symbol: str) -> str:
    """The unqualified name a C++ symbol defines: spark::nav::findPath(...) -> findPath."""
    s = symbol
    depth, cut = 0, len(s)
    for i, ch in enumerate(s):  # drop the parameter list (the first '(' at template depth 0)
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and not s[:i].endswith("operator"):
            cut = i
            break
    s = s[:cut]
    s = re.sub(r"<.*>$", "", s)  # template arguments of the last name
    s = re.sub(r"\[abi:[^\]]*\]", "", s)
    name = s.split("::")[-1].strip()
    return name.lstrip("~")


failures = []
exported_c = set()
for library in libraries:
    out = subprocess.run(["nm", "-D", "--defined-only", "-C", library], capture_output=True, text=True, check=True)
    kinds = Counter()
    for line in out.stdout.splitlines():
        parts = line.split(" ", 2)
        if len(parts) < 3:
            continue
        kind, symbol = parts[1], parts[2]
        if symbol.startswith("spark_nav_") and "(" not in symbol:
            if symbol in c_api:
                kinds["C API functions"] += 1
                exported_c.add(symbol)
                continue
            failures.append(f"{library}: {symbol}: not a function of spark/nav_c.h")
            continue
        special = SPECIAL.match(symbol)
        target = special.group(2) if special else symbol
        if not target.startswith("spark::"):
            failures.append(f"{library}: {symbol}: not Spark's API")
            continue
        name = last_name(target)
        if name.startswith("operator") or name in declared_words:
            label = special.group(1) if special else ("C++ functions" if kind in "TtWw" else "C++ data")
            kinds[label if not special else f"{label} (classes)"] += 1
        else:
            failures.append(f"{library}: {symbol}: '{name}' is declared in no public header")
    print(f"{Path(library).name}: {sum(kinds.values())} symbols: "
          + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
if any("spark_nav" in Path(lib).name for lib in libraries):
    missing = sorted(c_api - exported_c)
    if missing:
        failures.append("spark/nav_c.h functions not exported: " + ", ".join(missing))
for f in failures[:50]:
    print("FAIL", f)
if len(failures) > 50:
    print(f"... and {len(failures) - 50} more")
sys.exit(1 if failures else 0)
