"""tests/data holds notebooks that tests read and run themselves, never nbval items."""

collect_ignore_glob = ["data/*"]
