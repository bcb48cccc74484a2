"""Plain selections completed in one pass (schema.execution) answer exactly what
graphql-core's own field-by-field completion answers: the same data, and the same
errors at the same paths when a value does not fit the schema."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

import enum
from typing import Any

import pytest
import strawberry
from strawberry.scalars import JSON

from schema.execution import PlainExecutor


@strawberry.enum
class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@strawberry.interface
class Named:
    name: str


@strawberry.type
class Item(Named):
    count: int
    colour: Colour
    tags: list[str]
    note: str | None
    scores: list[int | None] | None
    data: JSON

    @strawberry.field
    def shout(self) -> str:
        return self.name.upper()


@strawberry.type
class Other:
    name: str


def item(**changes: Any) -> Item:
    fields: dict[str, Any] = {
        "name": "a",
        "count": 1,
        "colour": Colour.RED,
        "tags": ["x", "y"],
        "note": None,
        "scores": [1, None, 3],
        "data": {"k": [1, {"deep": True}]},
    }
    fields.update(changes)
    return Item(**fields)


LISTS: dict[str, list[Any]] = {
    "plain": [item(), item(name="b", note="n", colour=Colour.BLUE, scores=None)],
    "empty": [],
    "null_name": [item(), item(name=None)],
    "null_item": [item(), None],
    "huge_count": [item(count=2**40)],
    "null_tag": [item(tags=["x", None])],
    "null_score": [item(scores=[None])],
    "error_value": [item(note=ValueError("secret detail"))],
    "wrong_type": [item(), Other(name="o")],
    "not_an_enum": [item(colour="green")],
    "tuple_tags": [item(tags=("x", "y"))],
}


@strawberry.type
class Query:
    @strawberry.field
    def items(self, which: str) -> list[Item]:
        return LISTS[which]

    @strawberry.field
    def maybe_items(self, which: str) -> list[Item | None] | None:
        return LISTS[which]

    @strawberry.field
    def one(self, which: str) -> Item | None:
        return LISTS[which][-1] if LISTS[which] else None


PLAIN = strawberry.Schema(query=Query, execution_context_class=PlainExecutor)
STANDARD = strawberry.Schema(query=Query)

SELECTIONS = [
    "name count colour tags note scores data",
    "__typename name",
    "n: name c: count name",
    "... on Item { colour tags } name",
    "...F name",
    "name shout",
    "name count @skip(if: true) tags @include(if: false)",
    "name @skip(if: $skip) note",
]


def answer(schema: strawberry.Schema, query: str) -> tuple[Any, list[dict]]:
    result = schema.execute_sync(query, variable_values={"skip": True})
    return result.data, [error.formatted for error in result.errors or []]


@pytest.mark.parametrize("which", sorted(LISTS))
@pytest.mark.parametrize("selection", SELECTIONS)
@pytest.mark.parametrize("field", ["items", "maybeItems", "one"])
def test_the_answer_is_graphql_cores_own(field: str, selection: str, which: str) -> None:
    variables = "($skip: Boolean!)" if "$skip" in selection else ""
    query = f'query{variables} {{ {field}(which: "{which}") {{ {selection} }} }}'
    if "...F" in selection:
        query += " fragment F on Item { count data }"
    expected = answer(STANDARD, query)
    assert all("path" in error for error in expected[1])  # executed, not refused
    assert answer(PLAIN, query) == expected


def test_plain_lists_answer_every_item() -> None:
    data, errors = answer(PLAIN, '{ items(which: "plain") { __typename name colour scores } }')
    assert errors == []
    assert data == {
        "items": [
            {"__typename": "Item", "name": "a", "colour": "RED", "scores": [1, None, 3]},
            {"__typename": "Item", "name": "b", "colour": "BLUE", "scores": None},
        ]
    }


def test_an_unfit_value_is_an_error_at_its_path() -> None:
    data, errors = answer(PLAIN, '{ maybeItems(which: "null_name") { name } }')
    assert data == {"maybeItems": [{"name": "a"}, None]}
    assert [error["path"] for error in errors] == [["maybeItems", 1, "name"]]
    _, errors = answer(PLAIN, '{ items(which: "error_value") { note } }')
    assert [error["path"] for error in errors] == [["items", 0, "note"]]
