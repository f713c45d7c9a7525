"""Small builders of JSON Schemas (draft 2020-12) for the games' `json_schemas()`.

A game describes its own JSON with these: one schema per move type and per event type, its
view, its result and its options. Plain dicts, no library: the API turns them into its
OpenAPI document, tests validate real moves against them with `jsonschema`.

Conventions the API relies on: no `$ref` (each schema is self-contained); `null` only inside a
`type` list (`nullable(...)`); several types only as a bare `{"type": [...]}`; objects accept
members they do not list, so an engine may add one without breaking a client.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]


def _described(schema: Schema, description: str | None) -> Schema:
    if description:
        schema["description"] = description
    return schema


def integer(description: str | None = None, minimum: int | None = None) -> Schema:
    """A JSON integer."""
    schema: Schema = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    return _described(schema, description)


def string(description: str | None = None, enum: list[str] | None = None) -> Schema:
    """A JSON string, optionally one of `enum`."""
    schema: Schema = {"type": "string"}
    if enum is not None:
        schema["enum"] = list(enum)
    return _described(schema, description)


def boolean(description: str | None = None) -> Schema:
    """A JSON boolean."""
    return _described({"type": "boolean"}, description)


def const(value: Any, description: str | None = None) -> Schema:
    """Exactly `value` (a string, number or boolean)."""
    kind = {bool: "boolean", int: "integer", str: "string"}[type(value)]
    return _described({"type": kind, "const": value}, description)


def either(*types: str, description: str | None = None) -> Schema:
    """A value of any of the named JSON types ("integer", "string", ...)."""
    return _described({"type": list(types)}, description)


def nullable(schema: Schema) -> Schema:
    """`schema` or null."""
    kind = schema["type"]
    kinds = kind if isinstance(kind, list) else [kind]
    return {**schema, "type": [*kinds, "null"]}


def array(items: Schema, description: str | None = None, min_items: int | None = None,
          max_items: int | None = None) -> Schema:
    """A JSON array of `items`."""
    schema: Schema = {"type": "array", "items": items}
    if min_items is not None:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    return _described(schema, description)


def mapping(values: Schema, description: str | None = None) -> Schema:
    """A JSON object used as a map: any keys, each value a `values`."""
    return _described({"type": "object", "additionalProperties": values}, description)


def obj(required: dict[str, Schema], optional: dict[str, Schema] | None = None,
        description: str | None = None) -> Schema:
    """A JSON object with these members (the `required` ones always present)."""
    schema: Schema = {"type": "object", "properties": {**required, **(optional or {})}}
    if required:
        schema["required"] = list(required)
    return _described(schema, description)


ANY_OBJECT: Schema = {"type": "object"}
INTS: Schema = {"type": "array", "items": {"type": "integer"}}
STRINGS: Schema = {"type": "array", "items": {"type": "string"}}
BOOLS: Schema = {"type": "array", "items": {"type": "boolean"}}
SEAT: Schema = {"type": "integer", "minimum": 0, "description": "a seat number"}
SEATS: Schema = {"type": "array", "items": SEAT}
# A frame of an engine's pending-decision stack: [kind, seat, *parameters]. Its parameters are
# the engine's own (numbers, names, nested lists) and change with the rules: clients show it,
# never decide on it (legal_moves says what may be done).
FRAME: Schema = {"type": "array", "minItems": 1, "items": {},
                 "description": "a pending decision: its kind (a string) first, then the "
                                "engine's parameters (engine internal)"}
STACK: Schema = {"type": "array", "items": FRAME,
                 "description": "the pending decisions, the top one last (engine internal)"}


def with_options(view: Schema, options_schema: dict[str, Any]) -> Schema:
    """`view` whose `options` member is the game's options (as `options_of` describes them):
    a view carries the options the game was created with, defaults filled in."""
    return {**view, "properties": {**view["properties"], "options": options_of(options_schema)}}


def move(kind: str, description: str, /, example: dict[str, Any] | None = None,
         optional: dict[str, Schema] | None = None, **fields: Schema) -> Schema:
    """A move of type `kind`: its `type`, its `label` and its own fields (all present)."""
    schema = obj({"type": const(kind), **fields, "label": string("what the move does")},
                 optional, description)
    if example is not None:
        schema["examples"] = [example]
    return schema


def event(kind: str, description: str, /, optional: dict[str, Schema] | None = None,
          **fields: Schema) -> Schema:
    """An event of type `kind` with its fields (all present)."""
    return obj({"type": const(kind), **fields}, optional, description)


def moves(*schemas: Schema) -> dict[str, Schema]:
    """Move or event schemas keyed by their type."""
    return {schema["properties"]["type"]["const"]: schema for schema in schemas}


_OPTION_TYPES = {"int": "integer", "bool": "boolean", "str": "string", "float": "number"}


def options_of(options_schema: dict[str, Any]) -> Schema:
    """The JSON Schema of the options a game's `options_schema()` describes."""
    properties: dict[str, Schema] = {}
    for name, spec in options_schema.items():
        kinds = [_OPTION_TYPES[k] for k in str(spec.get("type", "str")).split("|")]
        prop: Schema = {"type": kinds[0] if len(kinds) == 1 else kinds}
        if "choices" in spec:
            prop["enum"] = list(spec["choices"])
        if "default" in spec:
            prop["default"] = spec["default"]
        properties[name] = _described(prop, spec.get("description"))
    # Options are a closed set: new_game refuses a name it does not know.
    return {"type": "object", "properties": properties, "additionalProperties": False}


RESULT_COMMON: dict[str, Schema] = {
    "finished": boolean("whether the game is over"),
    "scores": array(integer(), "final score of each seat"),
    "ranking": array(SEAT, "seats from first to last (ties broken by the rulebook)"),
}
