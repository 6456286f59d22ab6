"""The deal file (``--deal``): the moderator's sheet, validated against the rule set."""

from pathlib import Path

import pytest

from mafiavision.analysis.deal import DealError, load_deal
from mafiavision.errors import MissingInputError
from mafiavision.rules import Deal, Game, load_rules
from tests.analysis.conftest import SAMPLES, write_deal

KHARKIV_HIT = ("civilian", "civilian", "mafia", "civilian", "don", "civilian", "mafia",
               "civilian", "sheriff", "civilian")


@pytest.mark.parametrize(
    ("rules", "text", "roles"),
    [
        ("kharkiv", "roles:\n  don: 5\n  mafia: [3, 7]\n  sheriff: 9\n", KHARKIV_HIT),
        # JSON, capitalised roles, the civilians listed too
        ("kharkiv", '{"roles": {"Don": 5, "MAFIA": [7, 3], "sheriff": [9], '
                    '"civilian": [1, 2, 4, 6, 8, 10]}}', KHARKIV_HIT),
        ("triad", "roles: {commissar: 1, boss: 2, clan: [3, 4], kambu: 5, yakuza: 6}\n",
         ("commissar", "boss", "clan", "clan", "kambu", "yakuza") + ("town",) * 6),
    ],
)
def test_a_deal_a_moderator_writes(tmp_path: Path, rules: str, text: str, roles) -> None:
    path = tmp_path / "game.deal.yaml"
    path.write_text(text)
    ruleset = load_rules(rules)
    deal = load_deal(path, ruleset)
    assert deal.roles == roles
    Game(ruleset).push(Deal(roles=deal.roles))  # the engine takes it


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("roles:\n  don: 5\n  mafia: [3, 7]\n  sherif: 9\n",
         "roles.sherif: not a role of kharkiv (roles: sheriff, civilian, don, mafia)"),
        ("roles:\n  don: 5\n  mafia: [3, 5]\n  sheriff: 9\n",
         "roles: seat 5 is given twice (don and mafia)"),
        ("roles:\n  don: 11\n  mafia: [3, 7]\n  sheriff: 9\n",
         "roles.don: seat 11 does not exist (seats are 1..10)"),
        ("roles:\n  don: 5\n  mafia: [3, 7, 8]\n  sheriff: 9\n",
         "roles.mafia: 3 seats, but kharkiv deals 2 mafia cards"),
        ("roles:\n  don: 5\n  mafia: 3\n  sheriff: 9\n",
         "roles: seats 1, 2, 4, 6, 7, 8, 10 have no role and the cards left are 6 civilian, "
         "1 mafia: list every role but one"),
        ("roles:\n  don: five\n", "roles.don.int: Input should be a valid integer"),
        ("don: 5\nmafia: [3, 7]\n", "roles: Field required"),
        ("roles: {don: 5, mafia: [3, 7], sheriff: 9}\nnicknames: {12: Ann}\n",
         "nicknames.12: seat 12 does not exist (seats are 1..10)"),
        ("roles: {don: 5, mafia: [3, 7], sheriff: 9}\nnight: -1\n",
         "night: Input should be greater than or equal to 0"),
        ("roles: {don: 5, mafia: [3, 7], sheriff: 9}\nnight: first\n",
         "night: Input should be a valid integer"),
        ("- don\n- 5\n", "expected a mapping with 'roles:'"),
        ("roles: {don: 5\n", "not valid YAML or JSON"),
    ],
)
def test_a_bad_deal_is_one_line_naming_the_field(tmp_path: Path, text: str, message) -> None:
    path = tmp_path / "bad.deal.yaml"
    path.write_text(text)
    with pytest.raises(DealError) as err:
        load_deal(path, load_rules("kharkiv"))
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("line", "night"), [("", None), ("night: 0\n", 0), ("night: 3\n", 3)])
def test_the_night_the_recording_begins_on(tmp_path: Path, line: str, night: int | None) -> None:
    path = tmp_path / "game.deal.yaml"
    path.write_text("roles: {don: 5, mafia: [3, 7], sheriff: 9}\n" + line)
    assert load_deal(path, load_rules("kharkiv")).night == night


def test_nicknames_go_into_the_record_header(tmp_path: Path) -> None:
    from mafiavision.analysis.game import record_from_deal
    from mafiavision.rules.record import read_header

    path = tmp_path / "game.deal.yaml"
    path.write_text("roles: {don: 5, mafia: [3, 7], sheriff: 9}\nnicknames: {3: Anna, 5: Boris}\n")
    rules = load_rules("kharkiv")
    deal = load_deal(path, rules)
    _, info = record_from_deal(tmp_path / "record.jsonl", tmp_path / "game.mp4", rules, deal,
                               [], [], [], [])
    assert read_header(tmp_path / "record.jsonl").nicknames == {3: "Anna", 5: "Boris"}
    assert (info.actions, info.observed, info.deal) == (1, 0, str(path))


def test_a_missing_deal_file(tmp_path: Path) -> None:
    with pytest.raises(MissingInputError, match=r"none\.yaml: deal file not found"):
        load_deal(tmp_path / "none.yaml", load_rules("kharkiv"))


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.deal.yaml")), ids=lambda p: p.name)
def test_a_bundled_deal_is_its_clips_deal(tmp_path: Path, path: Path) -> None:
    """The deal files beside the sample clips (the demo's) deal what the clip's truth says."""
    import json

    game = path.name.removesuffix(".deal.yaml")
    rules = load_rules(json.loads((SAMPLES / f"{game}.truth.json").read_text())["rules"])
    truth = load_deal(write_deal(game, tmp_path / "truth.deal.yaml"), rules)
    assert load_deal(path, rules).roles == truth.roles
