"""``python -m bot.bench_records``: how fast /top and /stats answer with a long history
(:mod:`bot.bench.records`)."""

from bot.bench.records import main

if __name__ == "__main__":
    main()
