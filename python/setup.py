"""Builds the spark_nav wheel: the Python files, plus the shared libraries the
CMake build made (libspark_nav.so.0.2 and libspark_core.so.0.2, which finds the
former beside it), copied into the package so the installed copy needs
nothing else. Where they are: SPARK_NAV_LIBRARY (the path of
libspark_nav.so.0.2), else the first of ../build/release, ../build/* that has
lib/libspark_nav.so.0.2. Without them the package still installs and loads an
installed libspark_nav.so.0.2 through the dynamic loader.

    cmake --build build/release --target spark_shared_libraries
    pip install ./python --no-build-isolation
"""

import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ABI = "0.2"
HERE = Path(__file__).resolve().parent


def find_built_library():
    env = os.environ.get("SPARK_NAV_LIBRARY")
    if env:
        return Path(env)
    build = HERE.parent / "build"
    candidates = [build / "release"] + sorted(p for p in build.glob("*") if p.name != "release")
    for b in candidates:
        lib = b / "lib" / f"libspark_nav.so.{ABI}"
        if lib.exists():
            return lib
    return None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        nav = find_built_library()
        if nav is None:
            print("spark_nav: no CMake-built libspark_nav found; the package will load an installed one")
            return
        nav = nav.resolve()
        target = Path(self.build_lib) / "spark_nav"
        # libspark_nav finds libspark_core beside it (RUNPATH $ORIGIN).
        core = nav.parent / f"libspark_core.so.{ABI}"
        for src, name in ((nav, f"libspark_nav.so.{ABI}"), (core.resolve(), f"libspark_core.so.{ABI}")):
            print(f"spark_nav: packaging {src} as {name}")
            shutil.copyfile(src, target / name)


setup(cmdclass={"build_py": BuildWithLibrary})
