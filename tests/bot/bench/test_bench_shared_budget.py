"""``python -m bot.bench.shared_budget`` runs and prints what a call's reservation costs."""

import re

from bot.bench.shared_budget import main


def test_the_shared_budget_bench_prints_a_reservations_cost(capsys):
    main(["--calls", "20", "--runs", "1"])
    out = capsys.readouterr().out
    for kind in ("group", "private"):
        assert re.search(rf"a {kind} call's reservation: \d+\.\d+ ms wall, \d+\.\d+ ms CPU", out)
