"""The table: a match's life from lobby to record. Starting a match and committing a move
(``flow``), where it is played (``place``), its clocks (``deadlines``, ``timers``), its AI
seats and hints, drawing it into the chats (``publishing``), its move log, and the services
in one container (``host``). Both windows onto a match — the Telegram handlers and the web
side — call the table; the table calls neither."""
