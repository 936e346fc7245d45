"""schema/graphmem.graphql is the exported SDL: it must match the code, and describe everything."""

from __future__ import annotations

from pathlib import Path

from graphql import GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType, build_schema

from graphmem.api.schema import sdl

SDL_FILE = Path(__file__).resolve().parents[2] / "schema" / "graphmem.graphql"


def test_exported_sdl_matches_the_code() -> None:
    assert SDL_FILE.read_text("utf-8") == sdl(), (
        "schema/graphmem.graphql is stale: run `graphmem schema export > schema/graphmem.graphql`")


def test_every_type_and_field_has_a_description() -> None:
    schema = build_schema(sdl())
    missing = []
    for name, gql_type in schema.type_map.items():
        if name.startswith("__") or name in {"String", "Int", "Float", "Boolean", "ID"}:
            continue
        if not gql_type.description:
            missing.append(name)
        if isinstance(gql_type, GraphQLObjectType | GraphQLInputObjectType):
            missing += [f"{name}.{f}" for f, field in gql_type.fields.items()
                        if not field.description]
            if isinstance(gql_type, GraphQLObjectType):
                missing += [f"{name}.{f}({a})" for f, field in gql_type.fields.items()
                            for a, arg in field.args.items() if not arg.description]
        if isinstance(gql_type, GraphQLEnumType):
            pass  # enum values are self-describing words
    assert not missing, f"undescribed: {missing}"
