"""Hypothesis strategies for canonical records: every action type, every field kind, and values
that the notation can only spell as raw JSON (spaces, quotes, wrong types)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from railledger.ingest.action_types import GAME_ACTION_TYPES, PROGRAM_KINDS, Kind
from railledger.ingest.model import Action, Entity, Player, Record
from railledger.replay.titles import TITLES

BARE_WORDS = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_&.+\-]{0,8}", fullmatch=True)
NASTY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
TEXT = st.one_of(BARE_WORDS, BARE_WORDS.map(lambda w: w + ",1,2"), NASTY_TEXT)
HEX = st.from_regex(r"[A-Z][0-9]{1,2}", fullmatch=True)
JSON_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), NASTY_TEXT)
JSON_VALUE = st.recursive(
    JSON_SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(BARE_WORDS, inner, max_size=3)),
    max_leaves=6,
)


def value_of(kind: Kind | None) -> st.SearchStrategy[Any]:
    """A value a field of this kind may hold, mostly well-typed, sometimes not."""
    typed = {
        Kind.INT: st.integers(-1000, 10**6),
        Kind.STR: TEXT,
        Kind.STRS: st.lists(TEXT, max_size=4),
        Kind.BOOL: st.booleans(),
        Kind.ROUTES: st.lists(route(), min_size=1, max_size=3),
    }.get(kind)  # type: ignore[arg-type]
    if typed is None:
        return JSON_VALUE
    return st.one_of(typed, typed, typed, JSON_VALUE)


@st.composite
def route(draw: st.DrawFn) -> dict[str, Any]:
    result: dict[str, Any] = {"train": draw(st.one_of(BARE_WORDS, NASTY_TEXT))}
    result["connections"] = draw(
        st.one_of(st.lists(st.lists(HEX, min_size=1, max_size=4), min_size=1, max_size=3), JSON_VALUE)
    )
    if draw(st.booleans()):
        result["hexes"] = draw(st.lists(HEX, min_size=1, max_size=4))
    if draw(st.booleans()):
        result["revenue"] = draw(st.integers(0, 2000))
    if draw(st.booleans()):
        result["nodes"] = draw(st.lists(HEX.map(lambda h: h + "-0"), min_size=1, max_size=4))
    if draw(st.booleans()):
        result["subsidy"] = draw(JSON_VALUE)
    return result


@st.composite
def entity(draw: st.DrawFn, players: tuple[Player, ...]) -> Entity:
    return draw(
        st.one_of(
            st.sampled_from(players).map(lambda p: Entity("player", p.id)),
            BARE_WORDS.map(lambda s: Entity("corporation", s)),
            st.sampled_from(["p1", "p12"]).map(lambda s: Entity("corporation", s)),
            st.tuples(st.sampled_from(["company", "minor", "corporation", "player"]), st.one_of(TEXT, st.integers(0, 99))).map(
                lambda t: Entity(*t)
            ),
        )
    )


@st.composite
def fields_of(draw: st.DrawFn, type_name: str, players: tuple[Player, ...]) -> dict[str, Any]:
    spec = GAME_ACTION_TYPES.get(type_name)
    kinds = spec.kinds if spec else PROGRAM_KINDS
    required = spec.required if spec else ()
    fields: dict[str, Any] = {}
    for name, kind in kinds.items():
        if name not in required and not draw(st.booleans()):
            continue
        if kind is Kind.ENTITY:
            who = draw(entity(players))
            fields[name], fields[f"{name}_type"] = who.id, who.kind
            continue
        value = draw(value_of(kind))
        fields[name] = draw(value_of(kind).filter(lambda v: v is not None)) if name in required and value is None else value
    for name in draw(st.lists(st.from_regex(r"x_[a-z]{1,5}", fullmatch=True), max_size=2, unique=True)):
        fields[name] = draw(JSON_VALUE)
    return fields


@st.composite
def enveloped(draw: st.DrawFn, action: Action, players: tuple[Player, ...]) -> Action:
    """The action with some of its envelope set: a time, a user (a player or anyone), an id
    before renumbering, a skip mark, and display texts for its routes."""
    users = st.one_of(st.sampled_from(players).map(lambda p: p.id), st.integers(0, 10**6), NASTY_TEXT.filter(bool))
    envelope: dict[str, Any] = {}
    for name, values in (("created_at", st.integers(0, 4_102_444_800)), ("user", users),
                         ("original_id", st.integers(1, 10**6)), ("skip", st.booleans())):
        if draw(st.booleans()):
            envelope[name] = draw(values)
    routes = action.fields.get("routes")
    if isinstance(routes, list) and routes and all(isinstance(r, dict) for r in routes) and draw(st.booleans()):
        texts = draw(st.lists(st.none() | TEXT, min_size=len(routes), max_size=len(routes)))
        envelope["revenue_str"] = (draw(TEXT), *texts[1:])
    return replace(action, **envelope)


ACTION_TYPES = st.sampled_from(sorted(GAME_ACTION_TYPES))
PROGRAM_TYPES = st.sampled_from(["program_share_pass", "program_buy_shares", "program_disable"])


@st.composite
def records(draw: st.DrawFn) -> Record:
    count = draw(st.integers(1, 5))
    raw_ids = draw(st.lists(st.one_of(st.integers(1, 10**6), NASTY_TEXT.filter(bool)), min_size=count, max_size=count, unique_by=str))
    players = tuple(Player(pid, draw(NASTY_TEXT)) for pid in raw_ids)
    actions: list[Action] = []
    programs: list[Action] = []
    next_id = 1
    for _ in range(draw(st.integers(0, 12))):
        next_id += draw(st.integers(1, 3))
        is_program = draw(st.integers(0, 5)) == 0
        kind = draw(PROGRAM_TYPES if is_program else ACTION_TYPES)
        parent = draw(enveloped(Action(kind, draw(entity(players)), next_id, 0, draw(fields_of(kind, players))), players))
        (programs if is_program else actions).append(parent)
        for auto in range(1, draw(st.integers(0, 2)) + 1):
            auto_kind = draw(st.one_of(ACTION_TYPES, PROGRAM_TYPES))
            auto_action = Action(auto_kind, draw(entity(players)), next_id, auto, draw(fields_of(auto_kind, players)))
            actions.append(draw(enveloped(auto_action, players)))
    result = draw(st.none() | st.fixed_dictionaries({p.id: st.integers(-500, 20000) for p in players}))
    return Record(
        title=draw(st.sampled_from(sorted(TITLES))),
        game_id=draw(st.one_of(st.integers(1, 10**7).map(str), TEXT.filter(bool))),
        players=players,
        actions=tuple(actions),
        source=draw(st.sampled_from(["18xx.games", "railledger"])),
        seed=draw(st.none() | st.integers(0, 2**32)),
        optional_rules=tuple(draw(st.lists(TEXT, max_size=3))),
        status=draw(st.none() | st.sampled_from(["finished", "active"])),
        result=result,
        programs=tuple(programs),
        created=draw(st.none() | st.dates().map(lambda d: d.isoformat())),
        duration=draw(st.none() | st.integers(0, 10**8)),
    )
