"""SQLite schema (``PRAGMA user_version`` counts the entries applied). Columns no longer
read stay (dropping them would need a migration for nothing): matches.ping_message_id and
seats.pinged_token, from when the group was pinged about whose turn it is."""

MIGRATIONS: list[str] = [
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        lang TEXT
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        lang TEXT,
        telegram_lang TEXT,
        can_message INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        title TEXT NOT NULL DEFAULT '',
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        turn_seconds INTEGER NOT NULL DEFAULT 0,
        ends_at REAL,
        last_mover INTEGER,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
        creator_id INTEGER NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        board_print TEXT,
        ping_message_id INTEGER,
        announced INTEGER NOT NULL DEFAULT 0,
        published INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_active_match_per_topic
        ON matches (chat_id, thread_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX matches_by_status ON matches (status);
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        token INTEGER NOT NULL DEFAULT 0,
        prompt_sig TEXT,
        draft TEXT,
        deadline REAL,
        reminded INTEGER NOT NULL DEFAULT 0,
        timeouts INTEGER NOT NULL DEFAULT 0,
        autopilot INTEGER NOT NULL DEFAULT 0,
        pinged_token INTEGER NOT NULL DEFAULT 0,
        prompt_message_id INTEGER,
        prompt_text TEXT,
        prompt_token INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE moves (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        automatic INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        PRIMARY KEY (match_id, version)
    );
    CREATE TABLE notices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        params TEXT NOT NULL,
        sent INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX unsent_notices ON notices (match_id) WHERE sent = 0;
    """,
    """
    ALTER TABLE seats ADD COLUMN draft_step INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN waiting_since REAL;
    ALTER TABLE seats ADD COLUMN clock_offered INTEGER NOT NULL DEFAULT 0;
    """,
    """
    ALTER TABLE matches ADD COLUMN rematch_of INTEGER REFERENCES matches (id);
    """,
    """
    ALTER TABLE matches ADD COLUMN board_below INTEGER NOT NULL DEFAULT 0;
    """,
    # 5: an AI seat: its level (NULL: a human); its user_id is a negative number no Telegram
    # user has, unique within the match
    """
    ALTER TABLE seats ADD COLUMN ai TEXT;
    """,
    # 6: whether a group sees the tile games' boards as pictures (/pictures)
    """
    ALTER TABLE chats ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1;
    """,
    # 7: the public log leaves the state row (which keeps its length): one row per event,
    # appended, never rewritten
    """
    CREATE TABLE events (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (match_id, seq)
    ) WITHOUT ROWID;
    INSERT INTO events (match_id, seq, event)
        SELECT m.id, CAST(j.key AS INTEGER),
               CASE WHEN j.type IN ('object', 'array') THEN j.value ELSE json_quote(j.value) END
        FROM matches m, json_each(m.state, '$.log') j
        WHERE json_type(m.state, '$.log') = 'array';
    UPDATE matches SET state = json_set(state, '$.log', json_array_length(state, '$.log'))
        WHERE json_type(state, '$.log') = 'array';
    """,
    # 8: match records, ratings (global: scope 0; per group: its chat id), usernames for
    # /stats @user, the group's leaderboard switch. Finished matches played before this
    # are recorded (and rated) from their stored final state at start-up (Storage.open).
    """
    CREATE TABLE match_records (
        match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('finished', 'cancelled', 'abandoned')),
        rated INTEGER NOT NULL DEFAULT 0,
        players INTEGER NOT NULL,
        started_at REAL NOT NULL,
        ended_at REAL NOT NULL,
        details TEXT NOT NULL
    );
    CREATE INDEX records_by_chat ON match_records (chat_id, ended_at);
    CREATE TABLE match_players (
        match_id INTEGER NOT NULL REFERENCES match_records (match_id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        outcome TEXT NOT NULL,
        score INTEGER,
        rank INTEGER,
        counted INTEGER NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX players_by_user ON match_players (user_id, game);
    CREATE TABLE ratings (
        scope INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (scope, game, user_id)
    );
    CREATE INDEX ratings_board ON ratings (scope, game, ordinal, user_id);
    CREATE INDEX ratings_by_user ON ratings (user_id);
    CREATE TABLE usernames (
        username TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL
    );
    ALTER TABLE chats ADD COLUMN leaderboard INTEGER NOT NULL DEFAULT 1;
    """,
    # 9: the players who used /forget while a match of theirs was running: that match
    # records them without name or id when it ends (and drops their mark)
    """
    CREATE TABLE forgotten_players (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    """,
    # 10: a table in an inline message (inline mode: a chat the bot is not in): the
    # message's id; a chat may hold several such tables, one per message
    """
    ALTER TABLE matches ADD COLUMN inline_message_id TEXT;
    DROP INDEX one_active_match_per_topic;
    CREATE UNIQUE INDEX one_active_match_per_topic ON matches (chat_id, thread_id)
        WHERE status IN ('lobby', 'playing') AND inline_message_id IS NULL;
    CREATE UNIQUE INDEX one_active_match_per_inline_message ON matches (inline_message_id)
        WHERE status IN ('lobby', 'playing') AND inline_message_id IS NOT NULL;
    """,
    # 11: the operator's switches that outlive a restart (the drain before an upgrade)
    """
    CREATE TABLE bot_flags (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 12: tournaments (issue 48): a tournament per group topic at a time; its entrants; its
    # rounds, each written once with its tables and byes (a restart never pairs twice);
    # each table's match, whose end is heard once (places set only while still NULL); a
    # tournament's matches share their group's topic with its ordinary match
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        creator_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        format TEXT NOT NULL,
        table_size INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        advance INTEGER NOT NULL DEFAULT 1,
        turn_seconds INTEGER NOT NULL DEFAULT 0,
        with_bots INTEGER NOT NULL DEFAULT 0,
        starts_at REAL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
        message_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_active_tournament_per_topic ON tournaments (chat_id, thread_id)
        WHERE status IN ('lobby', 'running');
    CREATE TABLE tournament_entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        seed INTEGER NOT NULL,
        late_rounds INTEGER NOT NULL DEFAULT 0,
        withdrawn_after INTEGER,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_rounds (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        started_at REAL NOT NULL,
        message_id INTEGER,
        PRIMARY KEY (tournament_id, number)
    );
    CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        players TEXT NOT NULL,
        match_id INTEGER,
        places TEXT,
        game_points TEXT,
        PRIMARY KEY (tournament_id, round, table_no)
    );
    CREATE UNIQUE INDEX tournament_table_of_match ON tournament_tables (match_id)
        WHERE match_id IS NOT NULL;
    CREATE TABLE tournament_byes (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        PRIMARY KEY (tournament_id, round, user_id)
    );
    ALTER TABLE matches ADD COLUMN tournament_id INTEGER;
    DROP INDEX one_active_match_per_topic;
    CREATE UNIQUE INDEX one_active_match_per_topic ON matches (chat_id, thread_id)
        WHERE status IN ('lobby', 'playing') AND inline_message_id IS NULL
        AND tournament_id IS NULL;
    """,
    # 13: seasons (issue 48): each player's rating within a season beside the all-time one
    # (season = the number of its first month, year * 12 + month - 1), and the podium of a
    # group's season, told once
    """
    CREATE TABLE season_ratings (
        season INTEGER NOT NULL,
        scope INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (season, scope, game, user_id)
    );
    CREATE INDEX season_board ON season_ratings (season, scope, game, ordinal, user_id);
    CREATE TABLE season_podiums (
        scope INTEGER NOT NULL,
        season INTEGER NOT NULL,
        PRIMARY KEY (scope, season)
    );
    """,
    # 14: how far learners get in each tutorial: how many reached each step (the last
    # step's number + 1: finished) — counts only, naming no one
    """
    CREATE TABLE tutorial_steps (
        game TEXT NOT NULL,
        step INTEGER NOT NULL,
        reached INTEGER NOT NULL,
        PRIMARY KEY (game, step)
    );
    """,
    # 15: each learner's place in each lesson (their moves so far, so a lesson resumes
    # after a restart and from the app or the chat alike) and the furthest step they
    # reached (each step counted once per learner in tutorial_steps)
    """
    CREATE TABLE lessons (
        user_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        path TEXT NOT NULL,
        reached INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (user_id, game)
    );
    """,
    # 16: a tournament's tie-breaks in the order its creator chose ('' = its format's
    # own)
    """
    ALTER TABLE tournaments ADD COLUMN tie_breaks TEXT NOT NULL DEFAULT '';
    """,
]
