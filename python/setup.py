"""Build step of the pearson package: `go build` of the command into the package.

The package runs the Go command, so building it means building the command
with the Go toolchain the repository's README requires: ../cmd/pearson of the
checkout this directory sits in, into pearson/bin/pearson. The environment
variable PEARSON_BIN, when set, names an already built command to copy
instead (for a machine without Go).
"""

import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
EXE = "pearson.exe" if sys.platform == "win32" else "pearson"


def module_root():
    """The directory of go.mod above this one: the checkout's root."""
    d = HERE
    while True:
        if os.path.exists(os.path.join(d, "go.mod")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            raise SystemExit(
                "pearson: building the package needs the Go module (go.mod) above python/: "
                "install from a checkout of the repository (pip install ./python), "
                "or set PEARSON_BIN to a built pearson command")
        d = parent


class BuildWithGo(build_py):
    """build_py, then the Go command into pearson/bin."""

    def run(self):
        super().run()
        dest_dir = os.path.join(self.build_lib, "pearson", "bin")
        os.makedirs(dest_dir, exist_ok=True)
        dest = os.path.abspath(os.path.join(dest_dir, EXE))
        prebuilt = os.environ.get("PEARSON_BIN")
        if prebuilt:
            shutil.copy2(prebuilt, dest)
            return
        go = shutil.which("go")
        if go is None:
            raise SystemExit(
                "pearson: building the package needs the Go toolchain (go on PATH, as the "
                "README requires), or PEARSON_BIN naming a built pearson command")
        root = module_root()
        env = dict(os.environ)
        env.setdefault("CGO_ENABLED", "0")
        cmd = [go, "build", "-o", dest, "./cmd/pearson"]
        print("pearson: " + " ".join(cmd) + " (in " + root + ")", file=sys.stderr)
        subprocess.run(cmd, cwd=root, env=env, check=True)


class BinaryDistribution(Distribution):
    """The wheel holds a native executable: a platform wheel."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithGo}, distclass=BinaryDistribution)
