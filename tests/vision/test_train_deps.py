#!/usr/bin/env python3
"""test_train_deps.py: every module the training scripts (train/*.py) import is either
Python's own, one of train/'s, or comes from a Debian package that `scripts/bootstrap.sh
train` installs. `make train-folds` once stopped on a fresh machine at its step 4b because
train/stone_centres.py imported cv2 and bootstrap did not install python3-opencv; this
test fails on such an import before anyone waits an hour for it.

A new third-party import needs its package in bootstrap's train list and its line in
PACKAGES below (the test names both when one is missing)."""
import ast
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TRAIN = os.path.join(ROOT, "train")

# the import's top module -> the Debian package that provides it for /usr/bin/python3
PACKAGES = {
    "cv2": "python3-opencv",
    "numpy": "python3-numpy",
    "onnx": "python3-onnx",
    "torch": "python3-torch",
}


def imports(path):
    """The top-level module names a file imports (at any depth of the file)."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def bootstrap_train_packages():
    text = open(os.path.join(ROOT, "scripts", "bootstrap.sh"), encoding="utf-8").read()
    m = re.search(r"^\s*train\)\s*pkgs\+=\(([^)]*)\)", text, re.M)
    if not m:
        sys.exit("FAIL: scripts/bootstrap.sh has no 'train) pkgs+=(...)' line")
    return set(m.group(1).split())


def main():
    own = {f[:-3] for f in os.listdir(TRAIN) if f.endswith(".py")}
    stdlib = set(sys.stdlib_module_names)
    listed = bootstrap_train_packages()
    failures, checked = [], 0
    for f in sorted(os.listdir(TRAIN)):
        if not f.endswith(".py"):
            continue
        for mod in sorted(imports(os.path.join(TRAIN, f))):
            if mod in stdlib or mod in own:
                continue
            checked += 1
            pkg = PACKAGES.get(mod)
            if pkg is None:
                failures.append(f"train/{f} imports {mod}: no Debian package known for it "
                                "(add it to PACKAGES here and to bootstrap.sh's train list)")
            elif pkg not in listed:
                failures.append(f"train/{f} imports {mod}: scripts/bootstrap.sh train does not "
                                f"install {pkg}")
    for msg in failures:
        print("FAIL:", msg)
    if checked == 0:
        print("FAIL: no third-party import found in train/*.py (the parse found nothing)")
        return 1
    if failures:
        print(f"{len(failures)} of {checked} imports not installed")
        return 1
    print(f"{checked} third-party imports in train/*.py, every one installed by bootstrap.sh train")
    return 0


if __name__ == "__main__":
    sys.exit(main())
