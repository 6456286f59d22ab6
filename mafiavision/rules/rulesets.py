"""Rule sets as data: the pydantic :class:`RuleSet`, the built-in sets and club variants.

The four built-in rule sets of ``RULES.md`` live in ``rulesets/<name>.yaml`` beside this module;
each option there carries a citation (``citations``: option -> RULES.md paragraph and seed file).
A club loads its own variant from a JSON or YAML file, either complete or as ``base: <name>``
plus the fields it changes (merged into the built-in set, nested mappings merged key by key).
Every error in such a file is one line naming the file and the field.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from mafiavision.errors import InputError, MissingInputError

RULESETS_DIR = Path(__file__).with_name("rulesets")
BUILTIN_NAMES: tuple[str, ...] = ("kharkiv", "romanian", "ukrainian", "triad")


class RulesError(InputError):
    """A rule-set file or name is invalid (one line naming the file and the field)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TeamSpec(_Model):
    """One team: its cards, whether it hunts at night, its leader and what his check finds."""

    name: str = Field(description="Team id used in outcomes and records, e.g. 'town', 'black'.")
    bandit: bool = Field(description="The team hunts at night as one group (shared mechanic).")
    size: int = Field(ge=1, description="Number of cards of this team, leader included.")
    member: str = Field(description="Role title of the ordinary cards, e.g. 'civilian'.")
    leader: str | None = Field(None, description="Role title of the leader card, e.g. 'sheriff'.")
    leader_lives: int = Field(
        1, ge=1, le=3, description="Lives of the leader (Triad: the Commissar has two)."
    )
    leader_finds: tuple[str, ...] = Field(
        (), description="Roles for which the moderator nods at this leader's night check."
    )


class NightZeroStep(_Model):
    """One step of night zero: a bandit group meets, or a leader wakes and shows himself."""

    kind: Literal["meet", "leader"]
    team: str
    orders: int = Field(
        0, ge=0, le=5, description="'meet' only: how many nights of kill orders the group shows."
    )


class WinRule(_Model):
    """A win condition; the rules are checked in list order, the first that holds wins."""

    team: str = Field(description="The team that wins.")
    when: Literal["eliminated", "parity", "equal_groups"] = Field(
        description=(
            "'eliminated': none of `teams` is left; 'parity': the team has at least as many "
            "living players as `teams` together; 'equal_groups': the team and every one of "
            "`teams` have the same number of living players, one of `counts`."
        )
    )
    teams: tuple[str, ...]
    also_eliminated: tuple[str, ...] = Field(
        (), description="'parity' only: these teams must also have no one left."
    )
    counts: tuple[int, ...] = Field((), description="'equal_groups' only: allowed group sizes.")


class MissLimit(_Model):
    """A bandit group that misses this many times in the game loses (Kharkiv: three)."""

    misses: int = Field(ge=1)
    winner: str


class NoEliminationRule(_Model):
    """Days on which nobody leaves by vote end the game (Kharkiv: two in a row -> Mafia wins)."""

    days: int = Field(ge=1)
    consecutive: bool = Field(
        True, description="AMBIGUOUS (RULES.md §1): count only days in a row (else in total)."
    )
    extra_round: bool = Field(
        True,
        description=(
            "Before the win, the town gets one more round of nominations and votes; a player "
            "removed by it counts as voted out; if it removes nobody the winner wins."
        ),
    )
    winner: str


class Timers(_Model):
    """Speaking times in seconds for the moderator's screen (None: the text gives none)."""

    meeting: int | None = Field(None, ge=1, description="Night zero: a bandit group's meeting.")
    greeting: int | None = Field(None, ge=1, description="A greeting-round speech (day zero).")
    discussion: int | None = Field(None, ge=1, description="A day speech.")
    defence: int | None = Field(None, ge=1, description="A shoot-out defence speech.")
    last_word: int | None = Field(None, ge=1, description="A removed player's last word.")


class RuleSet(_Model):
    """A complete rule set. Built-in ones: :data:`BUILTIN_NAMES`; see docs/rules.md."""

    name: str
    title: str
    source: str = Field(description="RULES.md section and seed file the set comes from.")
    players: int = Field(ge=7, le=12)
    teams: tuple[TeamSpec, ...] = Field(min_length=2)
    night_zero: tuple[NightZeroStep, ...]
    wins: tuple[WinRule, ...] = Field(min_length=1)
    miss_limit: MissLimit | None = None
    no_elimination: NoEliminationRule | None = None
    disqualification: Literal["removes", "loses"] = Field(
        "removes",
        description="'loses': a player removed for unsporting behaviour makes his team lose.",
    )
    calls_dead_seats: bool = Field(
        True, description="The moderator calls every seat number in a hunt, dead ones included."
    )
    night_deaths_at_morning: bool = Field(
        True,
        description="Everyone alive at nightfall acts that night; hits take effect at dawn.",
    )
    lives_lost_per_night: Literal["per_hit", "one"] = Field(
        "per_hit", description="A leader with extra lives hit by two groups in one night."
    )
    lives_against_vote: bool = Field(
        False, description="Extra lives also protect from the vote (else voted out = out)."
    )
    greeting_day: bool = Field(
        False, description="The first day is a greeting round (day zero): no nominations."
    )
    single_candidate_first_day: Literal["no_vote", "vote"] = Field(
        "vote", description="Day 1 with exactly one candidate."
    )
    single_candidate_later: Literal["vote", "leaves"] = Field(
        "vote", description="A later day with exactly one candidate."
    )
    abstention: Literal["none", "last_candidate"] = Field(
        "none", description="A player who does not vote: counted nowhere, or for the last one."
    )
    revote_order: Literal["nomination", "reverse"] = Field(
        "nomination", description="Order of the shoot-out re-vote over the tied candidates."
    )
    tie_at_four: Literal["revote", "all_stay"] = Field(
        "revote", description="A tie with four players at the table: re-vote, or all stay."
    )
    all_leave_max: int | None = Field(
        None, ge=1, description="At most this many tied players can leave together."
    )
    all_leave_fewer_than_half: bool = Field(
        False, description="Only fewer than half the table can leave together (two of four may)."
    )
    all_leave_majority: Literal["table", "cast"] = Field(
        "table",
        description="'All leave?' passes with yes from more than half the table / the votes cast.",
    )
    timers: Timers = Field(default_factory=Timers, description="Speaking times in seconds.")
    citations: dict[str, str] = Field(
        default_factory=dict, description="Option -> RULES.md paragraph and seed file."
    )

    @model_validator(mode="after")
    def _consistent(self) -> RuleSet:
        names = [t.name for t in self.teams]
        if len(set(names)) != len(names):
            raise ValueError(f"team names must be unique, got {names}")
        roles = self.role_titles()
        duplicates = [r for r, n in Counter(roles).items() if n > 1]
        if duplicates:
            raise ValueError(f"role titles must be unique across teams, repeated: {duplicates}")
        if sum(t.size for t in self.teams) != self.players:
            raise ValueError(
                f"team sizes add up to {sum(t.size for t in self.teams)}, "
                f"but players is {self.players}"
            )
        if not any(t.bandit for t in self.teams) or all(t.bandit for t in self.teams):
            raise ValueError("needs at least one bandit team and one town team")
        for team in self.teams:
            unknown = set(team.leader_finds) - set(roles)
            if unknown:
                raise ValueError(f"team {team.name}: leader_finds names unknown roles {unknown}")
            if team.leader is None and (team.leader_finds or team.leader_lives != 1):
                raise ValueError(f"team {team.name}: leader options without a leader")
        for step in self.night_zero:
            self._known_team(step.team, "night_zero")
            if step.kind == "leader" and step.orders:
                raise ValueError("night_zero: only a 'meet' step shows orders")
            if step.kind == "leader" and self.team(step.team).leader is None:
                raise ValueError(f"night_zero: team {step.team} has no leader")
            if step.kind == "meet" and not self.team(step.team).bandit:
                raise ValueError(f"night_zero: team {step.team} does not hunt, it cannot 'meet'")
        for rule in self.wins:
            for name in (rule.team, *rule.teams, *rule.also_eliminated):
                self._known_team(name, "wins")
            if (rule.when == "equal_groups") != bool(rule.counts):
                raise ValueError("wins: counts are given exactly for 'equal_groups'")
            if rule.also_eliminated and rule.when != "parity":
                raise ValueError("wins: also_eliminated is only for 'parity'")
        for field, winner in (
            ("miss_limit", self.miss_limit and self.miss_limit.winner),
            ("no_elimination", self.no_elimination and self.no_elimination.winner),
        ):
            if winner:
                self._known_team(winner, field)
        unknown_options = set(self.citations) - set(type(self).model_fields)
        if unknown_options:
            raise ValueError(f"citations name unknown options {sorted(unknown_options)}")
        if self.disqualification == "loses" and len(self.teams) != 2:
            raise ValueError("disqualification 'loses' needs exactly two teams")
        return self

    def _known_team(self, name: str, field: str) -> None:
        if name not in {t.name for t in self.teams}:
            raise ValueError(f"{field}: unknown team {name!r}")

    def team(self, name: str) -> TeamSpec:
        """The team called ``name`` (KeyError if there is none)."""
        for team in self.teams:
            if team.name == name:
                return team
        raise KeyError(name)

    def role_titles(self) -> list[str]:
        """Every role title, leaders first within their team."""
        titles: list[str] = []
        for team in self.teams:
            if team.leader is not None:
                titles.append(team.leader)
            titles.append(team.member)
        return titles

    def role_counts(self) -> dict[str, int]:
        """How many cards of each role the deal holds."""
        counts: dict[str, int] = {}
        for team in self.teams:
            leaders = 1 if team.leader is not None else 0
            if team.leader is not None:
                counts[team.leader] = 1
            if team.size - leaders:
                counts[team.member] = team.size - leaders
        return counts

    def team_of(self, role: str) -> TeamSpec:
        """The team a role title belongs to (KeyError if unknown)."""
        for team in self.teams:
            if role in (team.member, team.leader):
                return team
        raise KeyError(role)

    def checks(self, role: str) -> bool:
        """Whether a role is a leader who checks (its team's leader, and the team has someone
        to find)."""
        team = self.team_of(role)
        return role == team.leader and bool(team.leader_finds)

    def finds(self, leader: str, target: str) -> bool:
        """The answer to a check by the card ``leader`` on a player holding ``target`` (a nod:
        True): whether ``target`` is one of the roles the leader's team looks for."""
        return target in self.team_of(leader).leader_finds

    def bandit_teams(self) -> list[TeamSpec]:
        return [t for t in self.teams if t.bandit]


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _read_mapping(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise MissingInputError(f"{path}: rule-set file not found") from exc
    try:
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0]
        raise RulesError(f"{path}: not valid {path.suffix.lstrip('.') or 'YAML'}: {first}") from exc
    if not isinstance(data, dict):
        raise RulesError(f"{path}: expected a mapping of rule-set fields at the top level")
    return data


def describe_validation_error(exc: ValidationError, prefix: str = "") -> str:
    """The first error of ``exc`` as 'prefix.field.path: message' (one line)."""
    err = exc.errors()[0]
    parts = [prefix] if prefix else []
    where = ".".join([*parts, *(str(p) for p in err["loc"])]) or "(top level)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    message = err["msg"].replace("\n", " ")
    return f"{where}: {message}{more}"


def rules_from_mapping(data: dict[str, Any], origin: str) -> RuleSet:
    """Validate a mapping (with an optional ``base``) into a :class:`RuleSet`."""
    data = dict(data)
    base = data.pop("base", None)
    if base is not None:
        if base not in BUILTIN_NAMES:
            raise RulesError(f"{origin}: base: expected one of {', '.join(BUILTIN_NAMES)}")
        data = _merge(builtin_rules(base).model_dump(mode="json"), data)
    try:
        return RuleSet.model_validate(data)
    except ValidationError as exc:
        raise RulesError(f"{origin}: {describe_validation_error(exc)}") from exc


@cache
def builtin_rules(name: str) -> RuleSet:
    """One of the four built-in rule sets."""
    if name not in BUILTIN_NAMES:
        raise RulesError(f"unknown rule set {name!r}: expected one of {', '.join(BUILTIN_NAMES)}")
    path = RULESETS_DIR / f"{name}.yaml"
    return rules_from_mapping(_read_mapping(path), str(path))


def load_rules(name_or_path: str | Path) -> RuleSet:
    """A built-in rule set by name, or a club variant from a ``.json``/``.yaml``/``.yml`` file."""
    if isinstance(name_or_path, str) and name_or_path in BUILTIN_NAMES:
        return builtin_rules(name_or_path)
    path = Path(name_or_path)
    if path.suffix not in (".json", ".yaml", ".yml"):
        raise RulesError(
            f"{name_or_path}: expected a rule-set name ({', '.join(BUILTIN_NAMES)}) "
            "or a .json/.yaml file"
        )
    return rules_from_mapping(_read_mapping(path), str(path))
