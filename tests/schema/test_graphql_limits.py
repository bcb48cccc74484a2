"""Query cost, depth and size limits: measured in time linear in the document (each
fragment once), refused before parsing when too long, and never blocking the server."""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import httpx
import pytest
from graphql import build_schema, get_introspection_query, parse, validate

from schema.cost import MAX_FRAGMENT_NESTING, limits_rule
from services.api.app import create_app


def doubling(levels: int, on: str = "CatalogGame", field: str = "catalog") -> str:
    """Each fragment spreads the one before it twice: 2**levels copies of `id`."""
    fragments = [f"fragment F0 on {on} {{ id }}"]
    fragments += [
        f"fragment F{n} on {on} {{ ...F{n - 1} ...F{n - 1} }}" for n in range(1, levels + 1)
    ]
    return f"query {{ {field} {{ ...F{levels} }} }}\n" + "\n".join(fragments)


# --- the rule itself, on a schema with a recursive type --------------------------------

TREE = build_schema(
    """
    type Query { node: Node, nodes(limit: Int): [Node] }
    type Node { id: ID, parent: Node, children(limit: Int): [Node] }
    """
)


def errors(query: str, max_cost: int = 20_000, max_depth: int = 12) -> list[dict]:
    rule = limits_rule(max_cost, max_depth, max_aliases=30)
    return [error.formatted for error in validate(TREE, parse(query), [rule])]


def nested(depth: int) -> str:
    return "{ node { " + "parent { " * (depth - 1) + "id" + " }" * depth + " }"


def test_depth_counts_fields_with_selections_and_stops_at_the_limit():
    assert errors(nested(12)) == []
    [error] = errors(nested(13))
    assert error["extensions"] == {"code": "query_too_deep", "limit": 12}


def test_fragments_add_no_depth_of_their_own_but_their_fields_count():
    fragment = "fragment P on Node { parent { parent { id } } }"
    deep = "{ node { " + "parent { " * 9 + "...P" + " }" * 9 + " } }" + fragment
    assert errors(deep) == []  # 1 + 9 + 2 = 12 levels
    deeper = "{ node { " + "parent { " * 10 + "...P" + " }" * 10 + " } }" + fragment
    assert errors(deeper)[0]["extensions"]["code"] == "query_too_deep"


def test_a_doubling_fragment_is_costed_exactly_without_expanding_it():
    # 2**30 copies of `id` under a list of 10: expanding them would never finish.
    query = doubling(30, on="Node", field="nodes")
    [error] = errors(query)
    assert error["extensions"]["code"] == "query_too_costly"
    assert error["extensions"]["cost"] == 10 * (1 + 2**30)


def test_a_fragment_costs_the_same_wherever_it_is_spread():
    query = """{ a: nodes(limit: 3) { ...C } b: node { ...C } }
    fragment C on Node { children(limit: 5) { id } }"""
    assert errors(query, max_cost=1) == [
        {
            "message": "This query costs 44, over the limit of 1; "
            "ask for fewer fields or smaller lists.",
            "locations": [{"line": 1, "column": 1}],
            "extensions": {"code": "query_too_costly", "cost": 44, "limit": 1},
        }
    ]  # C = 5 * (1 + 1) = 10; a = 3 * (1 + C) = 33; b = 1 * (1 + C) = 11


def test_fragments_nested_too_deep_are_refused_without_recursing_through_them():
    chain = "".join(
        f"fragment F{n} on Node {{ id ...F{n + 1} }}" for n in range(MAX_FRAGMENT_NESTING + 5)
    )
    query = "{ node { ...F0 } }" + chain + f"fragment F{MAX_FRAGMENT_NESTING + 5} on Node {{ id }}"
    codes = [error["extensions"].get("code") for error in errors(query)]
    assert "query_too_deep" in codes


def test_aliases_are_counted_through_fragments_once_per_spread():
    fragment = "fragment A on Node { a: id b: id c: id d: id e: id f: id g: id h: id }"
    assert errors("{ node { ...A ...A ...A } }" + fragment) == []  # 3 spreads x 8
    many = "{ node { ...B } } fragment B on Node { ...A x: parent { ...A } y: parent { ...A } "
    many += "z: parent { ...A } }" + fragment
    [error] = errors(many)
    assert error["extensions"] == {"code": "too_many_aliases", "limit": 30}
    assert "35 aliased fields" in error["message"]


def test_a_huge_limit_literal_is_refused_not_crashed_on():
    [error] = errors("{ nodes(limit: " + "9" * 5000 + ") { id } }")
    assert error["extensions"]["code"] == "query_too_costly"


# --- connections: a page costs what `first` asks for -------------------------------------

LISTED = "edges { cursor node { __typename } }"
"""Four fields per edge: the edge, its cursor, its node and the node's type name."""


@pytest.fixture(scope="module")
def skyport(games):
    from schema.schema import build_schema as build_skyport

    return build_skyport(games)._schema


def cost_of(schema, query: str) -> int:
    [error] = validate(schema, parse(query), [limits_rule(1, 12, max_aliases=30)])
    return error.extensions["cost"]


@pytest.mark.parametrize(
    ("query", "edges"),
    [
        ("{ games { %s } }", 20),  # the default page
        ("{ games(first: 5) { %s } }", 5),
        ("query($n: Int!) { games(first: $n) { %s } }", 100),  # the largest page
        ("{ games(first: 5000) { %s } }", 100),  # refused by the resolver, as 100 here
        ("{ records(first: 7) { %s } }", 7),
        ('{ events(gameId: "x") { %s } }', 200),
        ('query($n: Int!) { events(gameId: "x", first: $n) { %s } }', 1000),
    ],
)
def test_a_connection_costs_a_field_per_edge_of_its_page(skyport, query, edges):
    assert cost_of(skyport, query % LISTED) == 1 + edges * 4


PAGED_EVENTS = """query($id: ID!, $n: Int!) { events(gameId: $id, first: $n) {
    edges { cursor node { version seat action move status at events { kind seat data } } }
} }"""
"""A page of a game's log with each entry's events: over the cost limit at 1,000 entries."""


def test_a_page_size_given_by_a_variable_is_costed_at_the_value_sent(gql, api):
    """The cost was checked once per document, a variable counting as its largest value:
    this usual paged query was refused even for 20 entries (cost 49,004)."""
    game_id = api.create()["id"]
    for _ in range(2):  # and once more, the document remembered
        assert "errors" not in gql(PAGED_EVENTS, {"id": game_id, "n": 20})
        [error] = gql(PAGED_EVENTS, {"id": game_id, "n": 1000})["errors"]
        assert error["extensions"]["code"] == "query_too_costly"
        assert error["extensions"]["cost"] > error["extensions"]["limit"]
    for n in ("many", None, True):  # not a size: at its costliest, then refused as a type
        assert gql(PAGED_EVENTS, {"id": game_id, "n": n})["errors"]


def test_a_document_over_another_limit_is_refused_for_that_one_alone(gql, api):
    """Costly only at its variables' largest, and over the alias limit too: the answer
    names the alias limit, not the internal code of a cost still to be checked."""
    game_id = api.create()["id"]
    aliased = " ".join(f"a{n}: game(id: $id) {{ id }}" for n in range(31))
    query = PAGED_EVENTS[: PAGED_EVENTS.rindex("}")] + aliased + " }"
    errors = gql(query, {"id": game_id, "n": 20})["errors"]
    assert [error["extensions"]["code"] for error in errors] == ["too_many_aliases"]


def test_a_page_size_given_by_a_variable_is_costed_at_its_value_over_a_websocket(client, api):
    from tests.schema.test_graphql_ws_limits import code_of, run, socket

    game_id = api.create()["id"]
    with socket(client) as ws:
        assert run(ws, "1", PAGED_EVENTS, {"id": game_id, "n": 20})["type"] == "next"
        assert code_of(run(ws, "2", PAGED_EVENTS, {"id": game_id, "n": 1000})) == (
            "query_too_costly"
        )


# --- large values cost what they weigh ----------------------------------------------------


def test_thirty_aliased_catalog_components_are_refused_before_they_run(gql):
    # 2.6 MB of answer for a cost of 600 when a JSON value cost 1 however large.
    query = "{ " + " ".join(f"a{i}: catalog {{ components }}" for i in range(30)) + " }"
    answer = gql(query)
    assert answer["data"] is None
    [error] = answer["errors"]
    assert error["extensions"]["code"] == "query_too_costly"
    assert gql.data("{ catalog { id components optionsSchema } }")["catalog"]  # one is fine


def test_the_catalog_costs_about_what_its_answer_weighs(gql, skyport):
    query = "{ catalog { components optionsSchema } }"
    weight = len(json.dumps(gql.data(query), separators=(",", ":")))
    cost = cost_of(skyport, query)
    assert weight / 25 <= cost <= weight / 15  # about 20 bytes a unit, as plain fields


def test_records_cost_enough_that_a_query_holds_only_a_few(gql):
    query = "{ " + " ".join(f'r{i}: record(gameId: "g{i}")' for i in range(10)) + " }"
    [error] = gql(query)["errors"]
    assert error["extensions"]["code"] == "query_too_costly"


# --- introspection: costed on the schema's real lists ------------------------------------


def fanning_out(k: int, leaf: str = "name kind fields { name }") -> str:
    """The audit's document: k aliased lists at each of three levels, through fragments
    (k=16: 1 KB, which answered 113 MB in 35 s when introspection cost 1)."""
    a = " ".join(f"f{i}: fields {{ ...B }}" for i in range(k))
    b = " ".join(f"t{i}: type {{ ...C }}" for i in range(k))
    root = " ".join(f"s{i}: types {{ ...A }}" for i in range(k))
    return (
        f"{{ __schema {{ {root} }} }}\n"
        f"fragment A on __Type {{ {a} }}\nfragment B on __Field {{ {b} }}\n"
        f"fragment C on __Type {{ {leaf} }}"
    )


def limit_errors(schema, query: str, max_cost: int = 20_000) -> list[dict]:
    rule = limits_rule(max_cost, 12, max_aliases=30)
    return [error.formatted for error in validate(schema, parse(query), [rule])]


def test_introspection_costs_what_its_lists_hold(skyport):
    types = len(skyport.type_map)
    # __schema, then per type: the item and its name.
    [error] = limit_errors(skyport, "{ __schema { types { name } } }", max_cost=2 * types)
    assert error["extensions"] == {
        "code": "query_too_costly",
        "cost": 1 + 2 * types,
        "limit": 2 * types,
    }
    fields = len(skyport.query_type.fields)
    query = '{ __type(name: "Query") { fields { name } } }'
    [error] = limit_errors(skyport, query, max_cost=2 * fields)
    assert error["extensions"]["cost"] == 1 + 2 * fields


def test_a_type_named_by_a_variable_costs_as_much_as_every_type(skyport):
    query = "query($t: String!) { __type(name: $t) { name } }"
    types = len(skyport.type_map)
    [error] = limit_errors(skyport, query, max_cost=types)
    assert error["extensions"]["cost"] == 2 * types


def test_aliases_inside_introspection_count(skyport):
    fields = " ".join(f"a{i}: queryType {{ name }}" for i in range(31))
    [error] = limit_errors(skyport, "{ __schema { " + fields + " } }")
    assert error["extensions"] == {"code": "too_many_aliases", "limit": 30}


def test_introspection_nesting_past_its_own_depth_limit_is_refused(skyport):
    deep = "{ __schema { types { " + "ofType { " * 20 + "name" + " }" * 20 + " } } }"
    [error] = limit_errors(skyport, deep)
    assert error["extensions"] == {"code": "query_too_deep", "limit": 20}


STANDARD_INTROSPECTION = [
    get_introspection_query(),  # graphql-core's default
    get_introspection_query(  # with everything GraphiQL may ask for
        descriptions=True,
        specified_by_url=True,
        directive_is_repeatable=True,
        schema_description=True,
        input_value_deprecation=True,
    ),
]


def test_fanning_out_introspection_is_refused_and_the_standard_query_still_runs(gql, skyport):
    codes = {error["extensions"]["code"] for error in limit_errors(skyport, fanning_out(16))}
    assert codes == {"query_too_costly", "too_many_aliases"}
    answer = gql(fanning_out(4))
    assert answer["data"] is None
    codes = {error["extensions"]["code"] for error in answer["errors"]}
    assert codes == {"query_too_costly", "too_many_aliases"}
    # Without aliases past the limit, the real sizes alone refuse it (about 30,000).
    leaf = "name kind description fields { name description args { name } type { name } }"
    [error] = gql(fanning_out(2, leaf))["errors"]
    assert error["extensions"]["code"] == "query_too_costly"
    for query in STANDARD_INTROSPECTION:
        data = gql.data(query)
        assert len(data["__schema"]["types"]) == len(skyport.type_map)
        assert data["__schema"]["queryType"]["name"] == "Query"


def test_every_copy_of_an_introspection_query_counts(gql):
    standard = STANDARD_INTROSPECTION[0]
    selection = standard[standard.index("__schema") : standard.index("fragment FullType")]
    selection = selection.strip().removesuffix("}")  # the operation's closing brace
    fragments = standard[standard.index("fragment FullType") :]
    copies = " ".join(f"c{n}: {selection}" for n in range(3))
    [error] = gql("query {" + copies + "}\n" + fragments)["errors"]
    assert error["extensions"]["code"] == "query_too_costly"


# --- over HTTP ----------------------------------------------------------------------------


@pytest.fixture
def server(settings, games, serve):
    with serve(create_app(settings, games)) as running:
        yield running


async def health_latencies(http: httpx.AsyncClient, count: int = 10) -> list[float]:
    latencies = []
    for _ in range(count):
        started = time.perf_counter()
        health = await http.get("/healthz")  # times out (fails) if blocked for 2 s
        latencies.append(time.perf_counter() - started)
        assert health.status_code == 200
        await asyncio.sleep(0.02)
    return latencies


@pytest.mark.anyio
async def test_health_answers_within_100_ms_while_fragment_doubling_queries_arrive(server):
    """The bound is over the same probe's latency without the attack, measured just
    before: the machine running the tests may be busy with other work."""
    attack = {"query": doubling(20)}
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as attacker,
        httpx.AsyncClient(base_url=server.url, timeout=2) as prober,
    ):
        quiet = await health_latencies(prober)
        answers: list[httpx.Response] = []

        async def keep_attacking() -> None:
            while True:
                answers.append(await attacker.post("/graphql", json=attack))

        attackers = [asyncio.create_task(keep_attacking())]
        try:
            await asyncio.sleep(0.1)
            attacked = await health_latencies(prober)
        finally:
            for task in attackers:
                task.cancel()
            await asyncio.gather(*attackers, return_exceptions=True)
    assert len(answers) >= 3, "the attack queries were not answered meanwhile"
    assert all(a.json()["errors"][0]["extensions"]["code"] == "query_too_costly" for a in answers)
    slower = statistics.median(attacked) - statistics.median(quiet)
    assert slower < 0.1, (quiet, attacked)


@pytest.mark.anyio
async def test_a_25_level_doubling_query_is_refused_fast_with_a_code(server, games):
    async with httpx.AsyncClient(base_url=server.url, timeout=5) as http:
        started = time.perf_counter()
        answer = await http.post("/graphql", json={"query": doubling(25)})
        elapsed = time.perf_counter() - started
    assert answer.status_code == 200
    [error] = answer.json()["errors"]
    assert error["extensions"]["code"] == "query_too_costly"
    # The catalog lists one item per game served.
    assert error["extensions"]["cost"] == len(games) * (1 + 2**25)
    assert elapsed < 2.0


def test_a_document_over_the_length_limit_is_refused_before_parsing(gql):
    # Unparseable too: the length alone decides, before any parser sees it.
    answer = gql("{ catalog { id " + " " * 40_000 + "(")
    [error] = answer["errors"]
    assert error["extensions"] == {"code": "query_too_large", "limit": 32_768}
    assert "characters" in error["message"]


def test_a_document_over_the_token_limit_is_refused_before_parsing(gql):
    answer = gql("{ catalog { " + "id " * 10_001 + "} }")
    [error] = answer["errors"]
    assert error["extensions"] == {"code": "query_too_large", "limit": 10_000}
    assert "tokens" in error["message"]
    fine = gql("{ catalog { id } }" + "#" * 30_000)  # long, but comments are not tokens
    assert fine.get("errors") is None
