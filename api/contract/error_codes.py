"""Every error code the server can send, found in the code that sends it, so the OpenAPI ``Error``
schema's enum grows by itself when a rule or a platform error gains a code.

Sources, read from the source text of every module of the four layers:

- the code given to ``RuleViolation(CODE, ...)``, or to a helper that passes its first parameter
  on to ``RuleViolation`` (e.g. a game's ``refuse(code, message)``);
- a code a ``...refusal`` function returns (``road_refusal(...) -> "E_OCCUPIED"``): the convention
  for rules that compute which refusal applies before raising it;
- the ``code = "..."`` of every error class (``ServiceError`` and its kind);
- the code given to ``error_response(status, CODE, ...)`` (the API's own answers), and the values
  of a ``..._CODES`` dict (status -> code);

A code written as a name (``BAD_INPUT``) is looked up in its module.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "projections", "infra", "api")
RULE_ERROR = "RuleViolation"
CODE = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*")
# What a ``...refusal`` function returns must look more like a code than any word does.
CODE_SHAPE = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+")
RESPONSE_HELPER = "error_response"


def _modules() -> list[str]:
    """The four layers' modules, and those of every registered game (a game may live elsewhere)."""
    from domain.catalog import GAMES

    names: list[str] = []
    for layer in LAYERS:
        names.append(layer)
        package = importlib.import_module(layer)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, prefix=f"{layer}.")]
    for game in GAMES.all():
        names += [f.__module__ for f in (game.decide, game.evolve, game.advance, game.option_rules)]
    return list(dict.fromkeys(names))


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _raisers(tree: ast.Module) -> set[str]:
    """Functions of the module that hand their first parameter to ``RuleViolation`` as its code."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.args.args:
            first = node.args.args[0].arg
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and _called_name(call) == RULE_ERROR
                    and call.args
                    and isinstance(call.args[0], ast.Name)
                    and call.args[0].id == first
                ):
                    found.add(node.name)
    return found


def _code_of(node: ast.expr, module_name: str) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        value = getattr(importlib.import_module(module_name), node.id, None)
        if isinstance(value, str):
            return value
    return None


def _codes_in(module_name: str, source: str, raisers: set[str]) -> set[str]:
    tree = ast.parse(source)
    codes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and "refusal" in node.name:
            for returned in ast.walk(node):
                if isinstance(returned, ast.Return) and returned.value is not None:
                    code = _code_of(returned.value, module_name)
                    if code is not None and CODE_SHAPE.fullmatch(code):
                        codes.add(code)
        if isinstance(node, ast.Call) and node.args:
            called = _called_name(node)
            argument: ast.expr | None = None
            if called == RULE_ERROR or called in raisers:
                argument = node.args[0]
            elif called == RESPONSE_HELPER and len(node.args) >= 2:
                argument = node.args[1]
            code = _code_of(argument, module_name) if argument is not None else None
            if code is not None:
                codes.add(code)
        elif (
            isinstance(node, ast.Assign)
            and [t.id for t in node.targets if isinstance(t, ast.Name) and t.id.endswith("_CODES")]
            and isinstance(node.value, ast.Dict)
        ):
            codes |= {v.value for v in node.value.values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and [t.id for t in statement.targets if isinstance(t, ast.Name)] == ["code"]
                    and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)
                ):
                    codes.add(statement.value.value)
    return codes


@cache
def error_codes() -> tuple[str, ...]:
    """Every code, sorted."""
    sources: dict[str, str] = {}
    for name in _modules():
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None and spec.origin.endswith(".py"):
            sources[name] = Path(spec.origin).read_text()
    raisers: set[str] = set()
    for source in sources.values():
        raisers |= _raisers(ast.parse(source))
    codes: set[str] = set()
    for name, source in sources.items():
        codes |= _codes_in(name, source, raisers)
    return tuple(sorted(c for c in codes if CODE.fullmatch(c)))
