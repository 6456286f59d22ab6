import json
from pathlib import Path

import pytest

from mafiavision.errors import InputError, MissingInputError
from mafiavision.rules.rulesets import BUILTIN_NAMES, RulesError, RuleSet, load_rules

OPTION_FIELDS = [name for name in RuleSet.model_fields if name not in
                 ("name", "title", "source", "citations")]  # fmt: skip


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_builtin_sets_load_and_cite_every_option(name: str) -> None:
    rules = load_rules(name)
    assert rules.name == name
    assert set(rules.citations) == set(OPTION_FIELDS)
    for option, citation in rules.citations.items():
        assert "RULES.md" in citation and "seed" in citation, option
    seed = rules.source.split("seeds/")[1]
    assert (Path(__file__).resolve().parents[3] / "shared" / "seeds" / seed).name == seed


@pytest.mark.parametrize(
    ("name", "players", "counts"),
    [
        ("kharkiv", 10, {"civilian": 6, "sheriff": 1, "mafia": 2, "don": 1}),
        ("romanian", 10, {"citizen": 6, "commissar": 1, "mafia": 2, "don": 1}),
        ("ukrainian", 10, {"civilian": 6, "sheriff": 1, "mafia": 2, "don": 1}),
        ("triad", 12, {"town": 6, "commissar": 1, "clan": 2, "boss": 1, "yakuza": 1, "kambu": 1}),
    ],
)
def test_builtin_role_counts(name: str, players: int, counts: dict[str, int]) -> None:
    rules = load_rules(name)
    assert rules.players == players
    assert rules.role_counts() == counts


@pytest.mark.parametrize(
    ("name", "leader", "target", "yes"),
    [
        ("kharkiv", "sheriff", "don", True),
        ("kharkiv", "sheriff", "mafia", True),
        ("kharkiv", "sheriff", "civilian", False),
        ("kharkiv", "don", "sheriff", True),
        ("kharkiv", "don", "civilian", False),
        ("romanian", "commissar", "mafia", True),
        ("romanian", "don", "commissar", True),
        ("triad", "commissar", "yakuza", True),
        ("triad", "commissar", "town", False),
        ("triad", "boss", "commissar", True),
        ("triad", "kambu", "clan", False),
    ],
)
def test_a_check_finds_what_the_leaders_team_looks_for(
    name: str, leader: str, target: str, yes: bool
) -> None:
    assert load_rules(name).finds(leader, target) is yes


# Every AMBIGUOUS point and "further open point" of RULES.md is an option with this default.
@pytest.mark.parametrize(
    ("name", "option", "default"),
    [
        ("kharkiv", "no_elimination.consecutive", True),  # "two days": in a row
        ("kharkiv", "no_elimination.extra_round", True),  # the extra shoot-out
        ("kharkiv", "all_leave_max", 2),  # three tied again: night falls
        ("kharkiv", "all_leave_majority", "table"),
        ("romanian", "all_leave_majority", "table"),
        ("ukrainian", "all_leave_majority", "table"),
        ("triad", "all_leave_majority", "table"),
        ("triad", "lives_lost_per_night", "per_hit"),  # two hits in one night: two lives
        ("triad", "lives_against_vote", False),  # lives only against night hits
        ("triad", "teams.2.leader_finds", ("commissar",)),  # the Kambu looks for the Commissar
        ("triad", "wins.0.team", "yellow"),  # Yellow's win takes precedence
        ("triad", "wins.2.also_eliminated", ()),  # Black's parity with Yellow alive
        ("kharkiv", "night_deaths_at_morning", True),
        ("triad", "night_deaths_at_morning", True),
        ("romanian", "miss_limit", None),  # no number of misses ends the game
        ("kharkiv", "calls_dead_seats", True),
    ],
)
def test_ambiguous_points_are_options_with_defaults(
    name: str, option: str, default: object
) -> None:
    value: object = load_rules(name)
    for part in option.split("."):
        value = value[int(part)] if part.isdigit() else getattr(value, part)  # type: ignore[index]
    assert value == default


def test_club_variant_from_yaml_with_base(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(
        "base: kharkiv\nname: our-club\nplayers: 8\n"
        "teams:\n"
        "  - {name: town, bandit: false, size: 6, member: civilian, leader: sheriff,"
        " leader_finds: [mafia, don]}\n"
        "  - {name: mafia, bandit: true, size: 2, member: mafia, leader: don,"
        " leader_finds: [sheriff]}\n"
        "miss_limit: null\n"
        "no_elimination: {consecutive: false}\n"
    )
    rules = load_rules(path)
    assert rules.name == "our-club" and rules.players == 8
    assert rules.role_counts() == {"sheriff": 1, "civilian": 5, "don": 1, "mafia": 1}
    assert rules.miss_limit is None
    assert rules.no_elimination is not None
    assert rules.no_elimination.consecutive is False and rules.no_elimination.days == 2
    assert rules.revote_order == "reverse"  # inherited


def test_club_variant_from_complete_json(tmp_path: Path) -> None:
    data = load_rules("romanian").model_dump(mode="json")
    data.update(name="json-club", tie_at_four="revote", abstention="last_candidate")
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    rules = load_rules(path)
    assert (rules.tie_at_four, rules.abstention) == ("revote", "last_candidate")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("base: kharkiv\nplayers: 13\n", "players: Input should be less than or equal to 12"),
        ("base: kharkiv\nplayers: 9\n", "team sizes add up to 10, but players is 9"),
        ("base: kharkiv\nabstention: maybe\n", "abstention: Input should be 'none' or"),
        ("base: kharkiv\nmiss_limit: {misses: 0, winner: town}\n", "miss_limit.misses"),
        ("base: kharkiv\nmiss_limit: {misses: 3, winner: nobody}\n", "unknown team 'nobody'"),
        ("base: kharkiv\ncolour: red\n", "colour: Extra inputs are not permitted"),
        ("base: kharkiv\ncitations: {colour: x}\n", "citations name unknown options"),
        (
            "base: romanian\nnight_zero: [{kind: leader, team: red, orders: 2}]\n",
            "only a 'meet' step shows orders",
        ),
        ("base: romanian\nnight_zero: [{kind: meet, team: red}]\n", "red does not hunt"),
        (
            "base: romanian\nwins: [{team: red, when: equal_groups, teams: [black]}]\n",
            "counts are given exactly for 'equal_groups'",
        ),
        ("base: chess\n", "base: expected one of kharkiv"),
        ("base: triad\ndisqualification: loses\n", "'loses' needs exactly two teams"),
        ("[1, 2]\n", "expected a mapping"),
        ("players: [\n", "not valid yaml"),
    ],
)
def test_invalid_club_file_is_one_line_error_naming_the_field(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(text)
    with pytest.raises(RulesError) as exc:
        load_rules(path)
    assert isinstance(exc.value, InputError) and isinstance(exc.value, ValueError)
    assert str(path) in str(exc.value)
    assert message in str(exc.value)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize(
    ("spec", "error"),
    [("chess", RulesError), ("missing.yaml", MissingInputError), ("rules.txt", RulesError)],
)
def test_unknown_name_or_file(spec: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        load_rules(spec)
