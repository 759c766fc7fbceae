"""The operator's side: start-up checks of the database, draining before an upgrade,
backups and the move to PostgreSQL, error reports and counts, memory, the allocator, the
version, log lines and their format, and a database outage told to the groups."""
