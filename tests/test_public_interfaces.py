"""No code of ours reaches into a dependency's internals (issue 26: flask-cors 6.0.5 changed a
function of its internal `flask_cors.core` that the API called, and the server stopped
starting on every fresh install).

The check reads our sources with `ast`, never runs them. A dependency is any top-level
module that is neither ours nor the standard library's. It fails on:

- an import of a dependency's module that `tests/public_interfaces.json` does not list
  with the page documenting it (e.g. `flask_cors.core`), or whose path has a part
  starting with `_`;
- `from <dependency> import _name`;
- in the shipped code and the tools (not the tests, which may look into our own objects):
  an attribute `x._name` read or written on anything but `self`, `cls` or a module of
  ours (e.g. `api.spec._paths`, `response._content`, `super()._register_responses()`,
  except the documented extension points the JSON lists), and an assignment to an
  attribute of a dependency's module (`util.write_error = ...`: replacing its functions);
- in the shipped code and the tools: a method of a class of ours (or of a mixin of ours it
  lists among its bases) that overrides a method of a dependency's class it subclasses,
  unless `tests/public_interfaces.json` lists it under `overrides` (key: the dependency's
  class as our code names it, then the method) with the page documenting it as a method
  to override (every entry must cite one). Only this rule imports anything: the
  dependencies' classes, to see which names they have.
"""

from __future__ import annotations

import ast
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# generated_bgb_client: the client tests/api/test_openapi_types.py generates from our document
OURS = {"api", "core", "ai_worker", "clients", "tests", "bench", "tools", "hello_app",
        "generated_bgb_client"}
SHIPPED = ("api", "core", "ai_worker", "clients", "bench", "tools")
ALLOWED = json.loads((REPO / "tests" / "public_interfaces.json").read_text())


def _dependency(module: str) -> bool:
    top = module.split(".")[0]
    return top not in OURS and top not in sys.stdlib_module_names


def _sources(*folders: str) -> Iterator[Path]:
    for folder in folders:
        yield from sorted((REPO / folder).rglob("*.py"))


def import_findings(path: Path, tree: ast.AST) -> list[str]:
    """What `tree` imports of a dependency that is not documented as public."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules, names = [node.module], [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            if not _dependency(module):
                continue
            where = f"{path.relative_to(REPO)}:{node.lineno}"
            if any(part.startswith("_") for part in module.split(".")):
                found.append(f"{where}: imports the private module {module}")
            elif module not in ALLOWED["modules"]:
                found.append(f"{where}: imports {module}, which tests/public_interfaces.json "
                             "does not list as documented")
            found += [f"{where}: imports the private name {module}.{name}"
                      for name in names if name.startswith("_") and not name.startswith("__")]
    return found


def _our_modules(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The names bound to modules (or their members) of ours, and to dependencies' modules."""
    ours: set[str] = set()
    theirs: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                (theirs if _dependency(alias.name) else ours).add(bound)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                bound = alias.asname or alias.name
                if node.level > 0 or not _dependency(node.module or ""):
                    ours.add(bound)
                elif node.module is not None:
                    theirs.add(bound)
    return ours, theirs


def attribute_findings(path: Path, tree: ast.AST) -> list[str]:
    """`x._name` on what is not ours, and assignments into a dependency's module."""
    ours, theirs = _our_modules(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id in theirs
                        and target.value.id not in ALLOWED["namespaces"]
                        and ast.unparse(target) not in ALLOWED["settable"]):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}: replaces "
                                 f"{ast.unparse(target)} of a dependency")
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or name.startswith("__"):
            continue
        base = node.value
        if isinstance(base, ast.Name) and (base.id in ("self", "cls") or base.id in ours):
            continue
        if name in ALLOWED["extension_points"] and isinstance(base, ast.Call) and \
                isinstance(base.func, ast.Name) and base.func.id == "super":
            continue
        found.append(f"{path.relative_to(REPO)}:{node.lineno}: reads or sets "
                     f"{ast.unparse(node)}, a private attribute")
    return found


def _dependency_names(tree: ast.AST) -> dict[str, tuple[str, str | None]]:
    """Names bound to a dependency's module or member: name -> (module, member or None)."""
    bound: dict[str, tuple[str, str | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and _dependency(node.module):
            for alias in node.names:
                bound[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _dependency(alias.name):
                    name = alias.name if alias.asname else alias.name.split(".")[0]
                    bound[alias.asname or name] = (name, None)
    return bound


def _dependency_class(base: ast.expr, bound: dict[str, tuple[str, str | None]],
                      ) -> tuple[str, type] | None:
    """The dependency's class a base expression names (`GeventWorker`, `fields.Integer`),
    with its dotted name as our code reaches it; None for a base of ours."""
    path: list[str] = []
    while isinstance(base, ast.Attribute):
        path.insert(0, base.attr)
        base = base.value
    if not isinstance(base, ast.Name) or base.id not in bound:
        return None
    module, member = bound[base.id]
    path = ([member] if member else []) + path
    found: object = importlib.import_module(module)
    for part in path:
        found = getattr(found, part)
    return (".".join([module, *path]), found) if isinstance(found, type) else None


def override_findings(path: Path, tree: ast.AST) -> list[str]:
    """Methods of ours overriding a method of a dependency's class that
    tests/public_interfaces.json does not list under `overrides`."""
    bound = _dependency_names(tree)
    classes = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    found = []
    for cls in classes.values():
        theirs = [named for base in cls.bases if (named := _dependency_class(base, bound))]
        if not theirs:
            continue
        # Its own methods and those of the mixins of ours it lists among its bases.
        ours = [cls] + [classes[base.id] for base in cls.bases
                        if isinstance(base, ast.Name) and base.id in classes]
        for owner in ours:
            for node in owner.body:
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                        (node.name.startswith("__") and node.name.endswith("__")):
                    continue
                for name, dependency in theirs:
                    key = f"{name}.{node.name}"
                    if hasattr(dependency, node.name) and key not in ALLOWED["overrides"]:
                        found.append(f"{path.relative_to(REPO)}:{node.lineno}: {cls.name} "
                                     f"overrides {key}, which tests/public_interfaces.json "
                                     "does not list")
    return found


def test_no_import_of_a_dependencys_undocumented_module_or_private_name() -> None:
    found = []
    for path in _sources(*SHIPPED, "tests"):
        found += import_findings(path, ast.parse(path.read_text(encoding="utf-8")))
    assert found == []


def test_no_private_attribute_of_a_dependency_and_no_replaced_function() -> None:
    found = []
    for path in _sources(*SHIPPED):
        found += attribute_findings(path, ast.parse(path.read_text(encoding="utf-8")))
    assert found == []


def test_no_override_of_a_dependencys_method_that_is_not_listed() -> None:
    found = []
    for path in _sources(*SHIPPED):
        found += override_findings(path, ast.parse(path.read_text(encoding="utf-8")))
    assert found == []


def test_every_listed_override_is_documented() -> None:
    """Each entry of `overrides` cites the page that documents the method as one to
    override: no undocumented method of a dependency is overridden (issue 26)."""
    undocumented = {key: why for key, why in ALLOWED["overrides"].items()
                    if not why.startswith("https://")}
    assert undocumented == {}


def test_every_listed_override_is_still_one() -> None:
    """An entry of `overrides` names a method its dependency's class still has (a release
    that renamed it would leave our override never called)."""
    missing = []
    for key in ALLOWED["overrides"]:
        module_and_class, method = key.rsplit(".", 1)
        module, _, cls = module_and_class.rpartition(".")
        if not hasattr(getattr(importlib.import_module(module), cls), method):
            missing.append(key)
    assert missing == []


def test_the_check_finds_what_it_forbids() -> None:
    """Each rule catches its own example (so that a passing check means something)."""
    here = REPO / "api" / "example.py"
    source = """
from flask_cors.core import get_cors_options
from gunicorn import util
from redis import _private
import werkzeug._internal
from api import games
util.write_error = print
api.spec._paths
response._content = b""
super()._register_responses()
super()._deserialize(value, attr, data)
games._game_meta(svc, game_id)
self._cache
"""
    tree = ast.parse(source)
    imports = import_findings(here, tree)
    attributes = attribute_findings(here, tree)
    assert [line.split(": ", 1)[1] for line in imports] == [
        "imports flask_cors.core, which tests/public_interfaces.json does not list as "
        "documented",
        "imports gunicorn, which tests/public_interfaces.json does not list as documented",
        "imports the private name redis._private",
        "imports the private module werkzeug._internal"]
    overrides = override_findings(here, ast.parse("""
from gunicorn.workers.ggevent import GeventWorker
from requests import adapters

class Mixin:
    def handle_request(self, listener, req, client, addr): ...

class Worker(Mixin, GeventWorker):
    def handle(self, listener, client, addr): ...
    def ours(self): ...

class Adapter(adapters.HTTPAdapter):
    def add_headers(self, request, **kwargs): ...
"""))
    assert [line.split(": ", 1)[1] for line in overrides] == [
        "Worker overrides gunicorn.workers.ggevent.GeventWorker.handle, which "
        "tests/public_interfaces.json does not list",
        "Worker overrides gunicorn.workers.ggevent.GeventWorker.handle_request, which "
        "tests/public_interfaces.json does not list"]
    assert [line.split(": ", 1)[1] for line in attributes] == [
        "replaces util.write_error of a dependency",
        "reads or sets api.spec._paths, a private attribute",
        "reads or sets response._content, a private attribute",
        "reads or sets super()._register_responses, a private attribute"]
