import csv
from dataclasses import replace

import pytest

from mafiavision.analysis.batch import find_recordings, plan, run_batch
from mafiavision.errors import InputError, MissingInputError
from tests.analysis.conftest import BatchRun, open_page


def test_every_clip_is_analysed_and_the_corrupt_one_fails(batch_run: BatchRun) -> None:
    statuses = {game: row.status for game, row in batch_run.rows.items()}
    assert statuses.pop("corrupt") == "failed"
    assert "not a readable video file" in batch_run.rows["corrupt"].error
    assert set(statuses.values()) == {"done"}
    for game in statuses:
        assert (batch_run.out / game / "events.json").exists()
        assert (batch_run.out / game / "report.html").exists()


def test_summary_has_a_row_per_game(batch_run: BatchRun) -> None:
    with (batch_run.out / "summary.csv").open() as fh:
        rows = {r["game"]: r for r in csv.DictReader(fh)}
    assert set(rows) == set(batch_run.rows)
    assert rows["noaudio"]["vision_only"] == "True"
    assert rows["corrupt"]["status"] == "failed"


@pytest.mark.slow
def test_stats_page_loads_in_chromium(batch_run: BatchRun, browser) -> None:
    page, errors = open_page(browser, batch_run.out / "stats.html")
    assert errors == []
    text = page.inner_text("body")
    assert "Misses by reason" in text and "corrupt" in text
    page.close()


def test_a_second_run_skips_finished_games(batch_run: BatchRun) -> None:
    jobs = plan(find_recordings(str(batch_run.archive)), batch_run.out, "kharkiv", None)
    rows = {r.game: r for r in run_batch(jobs, batch_run.out, workers=1, progress=False)}
    assert rows.pop("corrupt").status == "failed"
    assert {r.status for r in rows.values()} == {"skipped"}
    assert rows.keys() == {g for g in batch_run.rows if g != "corrupt"}


@pytest.mark.parametrize(
    ("spec", "error"),
    [("no/such/folder", MissingInputError), ("no/such/*.mp4", MissingInputError)],
)
def test_find_recordings_rejects(spec: str, error: type[Exception]) -> None:
    with pytest.raises(error, match="no recording found"):
        find_recordings(spec)


def test_plan_rejects_two_games_of_one_name(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    paths = [tmp_path / "a" / "game.mp4", tmp_path / "b" / "game.mp4"]
    with pytest.raises(InputError, match="several recordings are named 'game'"):
        plan(paths, tmp_path / "out", "kharkiv", None)


def test_a_running_scheduler_takes_the_tasks(tmp_path) -> None:
    from dask.distributed import LocalCluster

    from tests.analysis.media_files import corrupt

    corrupt(tmp_path / "broken.mp4")
    (tmp_path / "broken.table.json").write_text("{}")
    jobs = plan([tmp_path / "broken.mp4"], tmp_path / "out", "kharkiv", None)
    with LocalCluster(n_workers=1, processes=True, dashboard_address=None) as cluster:
        (row,) = run_batch(jobs, tmp_path / "out", scheduler=cluster.scheduler_address,
                           progress=False)
    assert (row.game, row.status) == ("broken", "failed")
    assert "not a readable video file" in row.error


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path) -> None:
    from tests.analysis.media_files import corrupt

    jobs = plan([corrupt(tmp_path / "x.mp4")], tmp_path / "out", "kharkiv", None)
    with pytest.raises(InputError, match=r"--scheduler tcp://127\.0\.0\.1:9: cannot reach it"):
        run_batch(jobs, tmp_path / "out", scheduler="tcp://127.0.0.1:9", progress=False)


def test_each_game_takes_the_deal_beside_it(batch_run: BatchRun) -> None:
    """The clips have ``<name>.deal.yaml`` beside them (their records are written), the copies
    made from one of them have none (no record); ``summary.csv`` says which."""
    jobs = {j.game: j for j in plan(find_recordings(str(batch_run.archive)), batch_run.out,
                                    "kharkiv", None)}
    with (batch_run.out / "summary.csv").open() as fh:
        rows = {r["game"]: r for r in csv.DictReader(fh)}
    for game, job in jobs.items():
        has_deal = (batch_run.archive / f"{game}.deal.yaml").exists()
        assert job.deal == (batch_run.archive / f"{game}.deal.yaml" if has_deal else None)
        if rows[game]["status"] != "failed":
            assert (int(rows[game]["record_actions"]) > 0) == has_deal, game
            assert (batch_run.out / game / "record.jsonl").exists() == has_deal, game
    assert sum(j.deal is not None for j in jobs.values()) >= 1
    # the checks of kharkiv_checks_en (seats 3 and 4) are counted per role on the stats page
    stats = (batch_run.out / "stats.html").read_text()
    assert "<td>3</td><td>don</td>" in stats and "<td>4</td><td>sheriff</td>" in stats


def test_a_bad_deal_fails_its_game_only(sample_clip, tmp_path) -> None:
    from mafiavision.analysis.batch import run_job

    (tmp_path / "game.deal.yaml").write_text("roles: {don: 3, mafia: [1, 9, 2], sheriff: 4}\n")
    (job,) = plan([sample_clip], tmp_path / "out", "kharkiv",
                  sample_clip.with_name(sample_clip.stem + ".table.json"))
    row = run_job(replace(job, deal=tmp_path / "game.deal.yaml"))
    assert row.status == "failed"
    assert row.error == (f"DealError: {tmp_path / 'game.deal.yaml'}: roles.mafia: 3 seats, but "
                         "kharkiv deals 2 mafia cards")
