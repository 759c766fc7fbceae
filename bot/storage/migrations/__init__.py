"""Schema migrations, one list per backend. Each entry upgrades the schema by one version;
never edit a released entry: append a new one."""
