"""The OpenAPI document as a contract: the per-game command unions and the error code enum are
filled in from the domain, FastAPI's own ``422 {detail}`` (which this server never sends) is
taken out, and ``/docs`` is served from local assets, so it works offline."""

from __future__ import annotations

import copy
import importlib.resources
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.encoders import jsonable_encoder
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.models import Schema
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter

from api.contract.error_codes import error_codes
from api.contract.models import (
    DEFERRED,
    DEFERRED_SCHEMA,
    PLATFORM_RECORDS,
    command_operation,
    command_union,
    event_models,
    union_name,
)
from domain.catalog import GAMES

DOCS_ASSETS = "/docs/assets"
# Swagger UI 5 (it reads OpenAPI 3.1), as the fastapi-offline package ships it.
SWAGGER_UI_FILES = Path(str(importlib.resources.files("fastapi_offline") / "static"))
REF = "#/components/schemas/{model}"
FASTAPI_VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")
COMMAND_OPERATION = "send_"  # operation ids of the command routes, which need a seat token


def command_schemas() -> dict[str, Any]:
    """Every game's commands and its union (``PeloponnesCommand`` ...) as component schemas."""
    schemas: dict[str, Any] = {model.__name__: model.model_json_schema(ref_template=REF) for model in PLATFORM_RECORDS}
    for game in GAMES.ids():
        schema = TypeAdapter(command_union(game)).json_schema(ref_template=REF)
        schemas.update(schema.pop("$defs", {}))
        schema["description"] = f"A command of {GAMES.get(game).title}, told apart by `type`."
        schemas[union_name(game)] = schema
        for model in event_models(game):
            if model.__name__ in schemas:
                raise ValueError(f"two schemas are named {model.__name__}")
            event_schema = model.model_json_schema(ref_template=REF)
            schemas.update(event_schema.pop("$defs", {}))
            schemas[model.__name__] = event_schema
    return schemas


def deferred_schemas(document: dict[str, Any], schemas: dict[str, Any]) -> None:
    """The answers documented as ``Deferred`` (``api/contract/models.py``), built now: a model (or
    dataclass) as a component schema, any other type (a list, a union) in place."""
    for path in document["paths"].values():
        for operation in path.values():
            for status, response in operation.get("responses", {}).items():
                for content in response.get("content", {}).values():
                    name = content.get("schema", {}).get(DEFERRED_SCHEMA)
                    if name is None:
                        continue
                    model = DEFERRED[name].model()
                    schema = TypeAdapter(model).json_schema(ref_template=REF)
                    for part, part_schema in schema.pop("$defs", {}).items():
                        add_schema(schemas, part, as_fastapi_writes(part_schema))
                    schema = as_fastapi_writes(schema)
                    if isinstance(model, type):
                        add_schema(schemas, model.__name__, schema)
                        content["schema"] = {"$ref": REF.format(model=model.__name__)}
                    else:
                        title = operation.get("operationId", name).replace("_", " ").title()
                        content["schema"] = {**schema, "title": f"Response {status} {title}"}


def as_fastapi_writes(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema as FastAPI writes the ones it builds itself (no null defaults, numbers as floats)."""
    written: dict[str, Any] = jsonable_encoder(Schema(**schema), by_alias=True, exclude_none=True)
    return written


def add_schema(schemas: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
    if schemas.setdefault(name, schema) != schema:
        raise ValueError(f"two schemas are named {name}")


def command_summaries(document: dict[str, Any]) -> None:
    """Each game's command route named by the game's title (the routes are made without loading a game)."""
    operations = {command_operation(game): game for game in GAMES.ids()}
    for path in document["paths"].values():
        for operation in path.values():
            game = operations.get(operation.get("operationId", ""))
            if game is not None:
                operation["summary"] = f"Send a {GAMES.get(game).title} command for the bearer's seat"


def not_null(schema: dict[str, Any]) -> None:
    """A parameter left out is None; sent, it is text and never null: ``int | None`` is an integer."""
    options = schema.get("anyOf")
    if options is not None:
        kept = [option for option in options if option.get("type") != "null"]
        if len(kept) == 1:
            del schema["anyOf"]
            schema.update(kept[0])
        else:
            schema["anyOf"] = kept


def contract_document(app: FastAPI) -> dict[str, Any]:
    document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    # Parts of the operations are the routes' own dicts (a router may serve several apps): the
    # changes below are the document's only.
    document["paths"] = copy.deepcopy(document["paths"])
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    deferred_schemas(document, schemas)
    schemas.update(command_schemas())
    command_summaries(document)
    schemas["ErrorBody"]["properties"]["code"]["enum"] = list(error_codes())
    for name in FASTAPI_VALIDATION_SCHEMAS:
        schemas.pop(name, None)
    for path in document["paths"].values():
        for operation in path.values():
            for parameter in operation.get("parameters", []):
                not_null(parameter["schema"])
            if "security" in operation and not operation.get("operationId", "").startswith(COMMAND_OPERATION):
                # No token is a spectator: the token is optional everywhere but on the command routes.
                operation["security"] = [{}, *operation["security"]]
            responses = operation.get("responses", {})
            for status, response in responses.items():
                content = response.get("content", {})
                if status.startswith("2") and len(content) > 1 and content.get("application/json") == {"schema": {}}:
                    del content["application/json"]  # FastAPI's guess beside the media type the route sends
            validation = responses.get("422", {}).get("content", {}).get("application/json", {}).get("schema", {})
            if validation.get("$ref", "").endswith("/HTTPValidationError"):
                del responses["422"]
    return document


def install_contract(app: FastAPI, cors_origins: Sequence[str]) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = contract_document(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.mount(DOCS_ASSETS, StaticFiles(directory=SWAGGER_UI_FILES), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"{app.title} API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png",
        )

    if cors_origins:
        # Browser clients on these origins may call the API; none by default.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
        )
