"""Every stable error `code` a client can receive is in the README's Errors section.

The codes are read from the source with `ast`, not a regex: the string given as the
`code` of a `Problem(...)`, of the helpers that pass their `code` on to one
(`unauthorized`, `conflict`, ... found by following `code` parameters), of the engine's
and the tournaments' errors the service raises itself, and of the GraphQL result types
that implement `Error`; the `code` of a GraphQL error's `extensions`; and the input codes
of `services.gameplay.payloads.INPUT_CODES`. A code given as a literal, a module constant,
either branch of `a if c else b` or a `{status: code}.get(status, code)` table is read; any
other expression must be one of `FORWARDED` (a code made elsewhere, read there) - else the
test fails naming it, so that no new code goes unread. Codes found that no client ever
receives are in `NOT_SENT`, each with its reason.

The engine's rule codes (`services/engine`, `services/games`) are not read: the README
documents them as a family, passed through with 422.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from schema.types import Error
from services.gameplay.payloads import INPUT_CODES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("services/gameplay", "services/api", "schema", "workers")
"""Where the codes a client can receive are made."""
DEFINITIONS = (*SOURCES, "services/engine")
"""Where the constructors that take a `code` are defined (the engine's `GameError`)."""

NOT_SENT = {
    **dict.fromkeys(
        (
            "round_not_finished",
            "tournament_over",
            "result_mismatch",
            "result_recorded",
            "no_such_round",
            "no_such_table",
        ),
        "InvalidTournament refusing a step of a running tournament: the runner logs it "
        "(tournament_result_refused, tournament_round_refused); only a new tournament's "
        "refusals are answered (422), and it cannot meet these.",
    ),
    "query_cost_by_variables": "A mark between the cost rule and the document cache: a "
    "document over the cost limit only with its variables at their largest is checked "
    "again with each request's values, and answered query_too_costly if still over.",
    "http_error": "The fallback of handle_http_exception's table for a status Starlette's "
    "router never raises here (it raises 404 and 405, which the table names).",
    "invalid_graphql_request": "The fallback of the GraphQL view's table of Strawberry's "
    "HTTP refusals: the view reads requests itself (graphql_requests), so Strawberry's "
    "own 400s for a body or query string are never raised.",
}
CONSTRUCTORS_NOT_SENT = {
    "ReplayMismatch": "A record that no longer replays is answered 500 "
    "record_does_not_replay, and `skyport replay` prints the mismatch's code.",
}
FORWARDED = {
    ("services/gameplay/problems.py", "error.code"): "an engine error's own code (422)",
    ("services/gameplay/bulk.py", "problem.code"): "the same refusal, naming its game",
    ("services/gameplay/tournament_runner.py", "error.code"): "InvalidTournament's, read there",
    ("services/gameplay/tournaments/tournament.py", "error.code"): "an engine error's code",
    ("services/api/inputs.py", "input_code(error)"): "INPUT_CODES, or invalid_request",
    ("schema/inputs.py", "input_code(error)"): "INPUT_CODES, or invalid_request",
    ("schema/inputs.py", "problem.code"): "a Problem's, read where it is made",
    ("schema/mutations.py", "problem.code"): "a Problem's, read where it is made",
    ("schema/errors.py", "problem.code"): "a Problem's, read where it is made",
    ("services/api/graphql_requests.py", "problem.code"): "a Problem's, read where it is made",
}


@dataclass
class Found:
    codes: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    """Each code and where it is made (path:line)."""
    unread: list[str] = field(default_factory=list)
    """Code expressions this test cannot read and FORWARDED does not name."""
    forwarded: set[tuple[str, str]] = field(default_factory=set)
    """The entries of FORWARDED met."""


@dataclass(frozen=True)
class Takes:
    """A constructor or helper that takes a code: at `position` (None: keyword only)."""

    position: int | None


def _modules(roots: tuple[str, ...]) -> Iterator[tuple[str, ast.Module]]:
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(), str(path))


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    return names[1:] if names[:1] in (["self"], ["cls"]) else names


def _code_argument(call: ast.Call, takes: Takes) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    if takes.position is not None and len(call.args) > takes.position:
        argument = call.args[takes.position]
        return None if isinstance(argument, ast.Starred) else argument
    return None


def _called(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else None


def code_takers() -> dict[str, Takes]:
    """Every class whose `__init__` takes a `code` (and its subclasses that keep that
    `__init__`), the result types implementing GraphQL's `Error` (`code` by keyword), and
    every function that passes its own `code` parameter on as the code of one of these,
    until no more are found."""
    modules = list(_modules(DEFINITIONS))
    takers = {kind.__name__: Takes(None) for kind in Error.__subclasses__()}
    classes = [
        node for _, tree in modules for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
    ]
    functions = [
        node
        for _, tree in modules
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]

    def add(name: str, takes: Takes) -> None:
        assert takers.get(name, takes) == takes, f"two code takers named {name}"
        takers[name] = takes

    while True:
        before = dict(takers)
        for kind in classes:
            init = next(
                (n for n in kind.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
                None,
            )
            if init is not None and "code" in _parameters(init):
                add(kind.name, Takes(_parameters(init).index("code")))
            elif init is None:
                for base in kind.bases:
                    if isinstance(base, ast.Name) and base.id in takers:
                        add(kind.name, takers[base.id])
        for function in functions:
            if "code" not in _parameters(function) or function.name == "__init__":
                continue
            for call in ast.walk(function):
                if not isinstance(call, ast.Call) or _called(call) not in takers:
                    continue
                argument = _code_argument(call, takers[_called(call) or ""])
                if isinstance(argument, ast.Name) and argument.id == "code":
                    add(function.name, Takes(_parameters(function).index("code")))
        if takers == before:
            return takers


class _Reader:
    """Reads the codes of one module."""

    def __init__(self, path: str, tree: ast.Module, found: Found) -> None:
        self.path = path
        self.found = found
        self.constants = {
            target.id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }

    def read(self, expression: ast.expr, scope: ast.AST | None, line: int) -> None:
        where = f"{self.path}:{line}"
        if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
            self.found.codes[expression.value].append(where)
        elif isinstance(expression, ast.IfExp):
            self.read(expression.body, scope, line)
            self.read(expression.orelse, scope, line)
        elif _is_table_lookup(expression):
            assert isinstance(expression, ast.Call) and isinstance(expression.func, ast.Attribute)
            table = expression.func.value
            assert isinstance(table, ast.Dict)
            for value in (*table.values, *expression.args[1:]):
                self.read(value, scope, line)
        elif isinstance(expression, ast.Name) and expression.id == "code" and _takes_code(scope):
            pass  # a helper's own `code` parameter (so a code taker): read at its callers
        elif isinstance(expression, ast.Name) and self._assigned(expression.id, scope):
            for value in self._assigned(expression.id, scope):
                self.read(value, scope, line)
        elif (self.path, ast.unparse(expression)) in FORWARDED:
            self.found.forwarded.add((self.path, ast.unparse(expression)))
        else:
            self.found.unread.append(f"{where}: {ast.unparse(expression)}")

    def _assigned(self, name: str, scope: ast.AST | None) -> list[ast.expr]:
        local = [
            node.value
            for node in ast.walk(scope or ast.Module(body=[], type_ignores=[]))
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        ]
        if local:
            return local
        return [self.constants[name]] if name in self.constants else []


def _takes_code(scope: ast.AST | None) -> bool:
    return isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) and "code" in _parameters(
        scope
    )


def _is_table_lookup(expression: ast.expr) -> bool:
    """`{status: code, ...}.get(status, code)`."""
    return (
        isinstance(expression, ast.Call)
        and isinstance(expression.func, ast.Attribute)
        and expression.func.attr == "get"
        and isinstance(expression.func.value, ast.Dict)
    )


def _extensions_dicts(tree: ast.Module) -> Iterator[ast.Dict]:
    """Dicts given as a GraphQL error's `extensions` (by keyword, or assigned to an
    `extensions` name or attribute)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "extensions":
            value: ast.expr | None = node.value
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = any(
                (isinstance(t, ast.Name) and t.id == "extensions")
                or (isinstance(t, ast.Attribute) and t.attr == "extensions")
                for t in targets
            )
            value = node.value if named else None
        else:
            continue
        if isinstance(value, ast.Dict):
            yield value


def _enclosing_functions(tree: ast.Module) -> dict[ast.AST, ast.AST]:
    """Each node's innermost enclosing function (the scope its names are looked up in)."""
    enclosing: dict[ast.AST, ast.AST] = {}

    def visit(node: ast.AST, function: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            if function is not None:
                enclosing[child] = function
            inner = child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else None
            visit(child, inner or function)

    visit(tree, None)
    return enclosing


def codes_in_source() -> Found:
    takers = code_takers()
    found = Found()
    for path, tree in _modules(SOURCES):
        reader = _Reader(path, tree, found)
        scopes = _enclosing_functions(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _called(node) not in takers:
                continue
            if _called(node) in CONSTRUCTORS_NOT_SENT:
                continue
            argument = _code_argument(node, takers[_called(node) or ""])
            if argument is not None:
                reader.read(argument, scopes.get(node), node.lineno)
        for extensions in _extensions_dicts(tree):
            for key, value in zip(extensions.keys, extensions.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "code":
                    reader.read(value, scopes.get(extensions), value.lineno)
    for code in INPUT_CODES:
        found.codes[code].append("services/gameplay/payloads.py: INPUT_CODES")
    return found


def readme_errors_section() -> str:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("\n### Errors\n")
    end = re.compile(r"^#{1,3} ", re.MULTILINE).search(readme, start + len("\n### Errors\n"))
    return readme[start : end.start() if end else len(readme)]


def test_every_error_code_is_in_the_readme() -> None:
    found = codes_in_source()
    unread = found.unread
    assert not unread, "codes this test cannot read; name them in FORWARDED:\n" + "\n".join(unread)
    documented = set(re.findall(r"`([a-z][a-z0-9_]*)`", readme_errors_section()))
    missing = {
        code: where
        for code, where in sorted(found.codes.items())
        if code not in documented and code not in NOT_SENT
    }
    assert not missing, "error codes missing from the README's Errors section:\n" + "\n".join(
        f"{code} (made at {', '.join(where)})" for code, where in missing.items()
    )


def test_every_way_of_giving_a_code_is_read() -> None:
    """The reader finds a code made each way, so that none is skipped unseen."""
    codes = codes_in_source().codes
    assert "services/gameplay/problems.py" in codes["game_not_found"][0]  # Problem(...)
    assert any("seats.py" in w for w in codes["not_the_creator"])  # forbidden(...)
    assert any("params.py" in w for w in codes["seat_not_found"])  # _no_game_has(...), 2 deep
    assert codes["webhook_url_not_allowed"]  # a module constant
    assert codes["game_over"] and codes["game_aborted"]  # IllegalMove(a if c else b)
    assert codes["seats_per_table"]  # InvalidTournament(...)
    assert codes["invalid_request"]  # Rejected(code=...)
    assert codes["query_too_costly"] and codes["invalid_variables"]  # GraphQL extensions
    assert codes["http_error"] and codes["invalid_graphql_request"]  # {...}.get(s, code)
    assert codes["too_many_games"]  # INPUT_CODES
    assert not codes.keys() & {"events_differ", "wrong_game"}  # ReplayMismatch: not sent


def test_the_exceptions_are_still_in_the_source() -> None:
    """An exception the source no longer needs is removed from its list."""
    found = codes_in_source()
    gone = NOT_SENT.keys() - found.codes.keys()
    assert not gone, f"no longer in the source; remove from NOT_SENT: {sorted(gone)}"
    unused = FORWARDED.keys() - found.forwarded
    assert not unused, f"no longer in the source; remove from FORWARDED: {sorted(unused)}"
