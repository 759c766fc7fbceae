"""``python -m bot.migrate --to "$DATABASE_URL"``: copy the SQLite database into PostgreSQL
(:mod:`bot.operations.migrate`)."""

from bot.operations.migrate import main

if __name__ == "__main__":
    main()
