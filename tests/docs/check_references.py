#!/usr/bin/env python3
"""Docs live in the repository (CTest docs_references).

Fails, naming file and line, when a source, schema, test, sample or doc
  - names a page `docs/<name>.md` that does not exist,
  - refers to the old outside contract ("SPEC §"),
  - names a file outside the repository through `../shared`.
Usage: check_references.py SOURCE_ROOT
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
SKIP_DIRS = {".git", "build", "node_modules", "dist", "__pycache__", "corpus"}
SUFFIXES = {".h", ".hpp", ".c", ".cpp", ".md", ".json", ".txt", ".cmake", ".py", ".sh", ".js", ".ts", ".in", ""}
DOC_REF = re.compile(r"docs/([A-Za-z0-9_\-]+\.md)")
OUTSIDE = re.compile(r"\.\./shared\b")
OLD_SPEC = "SPEC \u00a7"
SELF = pathlib.Path("tests/docs/check_references.py")


def files():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(part in SKIP_DIRS for part in rel.parts) or not path.is_file():
            continue
        if path.suffix not in SUFFIXES and path.name not in ("CMakeLists.txt",):
            continue
        if path.suffix == "" and not path.parent.name == "scripts":
            continue
        yield path, rel


def main():
    problems = []
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    checked = 0
    for path, rel in files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if rel == SELF:
            continue
        checked += 1
        for number, line in enumerate(text.splitlines(), 1):
            for page in DOC_REF.findall(line):
                if page not in pages:
                    problems.append(f"{rel}:{number}: docs/{page} does not exist")
            if OLD_SPEC in line or "SPEC \\u00a7" in line:
                problems.append(f"{rel}:{number}: refers to the outside SPEC; point to a docs/ page")
            if OUTSIDE.search(line):
                problems.append(f"{rel}:{number}: names a file outside the repository (../shared)")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{checked} files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
