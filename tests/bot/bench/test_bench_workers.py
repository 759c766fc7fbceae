"""``python -m bot.bench.workers --quick`` runs real workers and prints their figures."""

import re

from bot.bench.workers import main


def test_the_workers_bench_prints_updates_and_app_moves_a_second_for_each_count(capsys):
    main(["--quick"])
    rows = [line for line in capsys.readouterr().out.splitlines() if re.match(r"\| [12] \|", line)]
    assert [row.split("|")[1].strip() for row in rows] == ["1", "2"]
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        updates, app_moves = float(cells[1]), float(cells[6])
        assert updates > 0 and app_moves > 0  # each worker count moved matches both ways
    assert rows[0].split("|")[3].strip() == "1.00"  # one worker, the ratios' unit
