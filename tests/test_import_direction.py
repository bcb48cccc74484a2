"""Imports point one way: engine <- games <- (ai, store) <- gameplay <- (api, schema,
workers). The three doors (REST, GraphQL, Celery) never import each other, except that
the REST app mounts the GraphQL one; so a worker never loads Starlette or Strawberry."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

ALLOWED: dict[str, set[str]] = {
    "engine": {"engine"},
    "games": {"engine", "games"},
    "ai": {"engine", "ai"},
    "store": {"engine", "store"},
    "gameplay": {"engine", "games", "ai", "store", "gameplay"},
    "api": {"engine", "games", "ai", "store", "gameplay", "api", "schema"},
    "schema": {"engine", "games", "ai", "store", "gameplay", "schema"},
    "workers": {"engine", "games", "ai", "store", "gameplay", "workers"},
}
"""Which layers each layer may import (the `skyport` command, services/cli.py, may
import everything)."""

MOUNTS_SCHEMA = {"services/api/graphql.py", "services/api/graphql_requests.py"}
MOUNTS_SCHEMA |= {"services/api/graphql_ws.py"}
"""The REST door's GraphQL transport: the only modules of `api` that import `schema`."""


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] in ("schema", "workers"):
        return parts[0]
    if parts[0] == "services" and len(parts) > 1 and parts[1] in ALLOWED:
        return parts[1]
    return None


def module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module `path` imports (relative imports resolved), with its line."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def source_files() -> list[Path]:
    roots = [ROOT / "services", ROOT / "schema", ROOT / "workers"]
    return sorted(path for root in roots for path in root.rglob("*.py"))


def test_every_import_of_the_source_tree_points_the_allowed_way() -> None:
    wrong = []
    for path in source_files():
        source = layer_of(module_name(path))
        if source is None:  # services/cli.py, services/__init__.py
            continue
        shown = str(path.relative_to(ROOT))
        for line, imported in imported_modules(path):
            target = layer_of(imported)
            if target is None:
                continue
            if target not in ALLOWED[source]:
                wrong.append(f"{shown}:{line}: {source} imports {imported}")
            elif source == "api" and target == "schema" and shown not in MOUNTS_SCHEMA:
                wrong.append(f"{shown}:{line}: only the GraphQL mount imports {imported}")
    assert not wrong, "imports against the arrows:\n" + "\n".join(wrong)


def test_the_check_sees_relative_and_nested_imports() -> None:
    imported = dict((name, line) for line, name in imported_modules(ROOT / "workers/tasks.py"))
    assert "workers.celery_app" in imported, "from .celery_app import app"
    assert "services.gameplay.build" in imported
    assert layer_of("services.api.app") == "api" and layer_of("schema.types") == "schema"


def loaded_after(statement: str) -> set[str]:
    """The top-level module names loaded by running `statement` in a fresh interpreter."""
    code = (
        f"{statement}\nimport sys\n"
        "print('\\n'.join(sorted({name.split('.')[0] for name in sys.modules})))\n"
        "print('\\n'.join(name for name in sys.modules if name.startswith('services.')))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


@pytest.mark.parametrize("door", ["workers.tasks", "workers.celery_app"])
def test_a_worker_loads_neither_starlette_nor_strawberry(door: str) -> None:
    loaded = loaded_after(f"import {door}")
    assert "services.gameplay.build" in loaded or door != "workers.tasks"
    assert not loaded & {"starlette", "strawberry", "graphql", "schema"}
    assert not {name for name in loaded if name.startswith("services.api")}


def test_the_graphql_schema_does_not_load_the_rest_door() -> None:
    loaded = loaded_after("import schema, schema.schema, schema.export")
    assert "strawberry" in loaded
    assert not {name for name in loaded if name.startswith("services.api")}
