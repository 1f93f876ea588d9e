"""coup.ops: tools that drive or measure a server from outside it.

`coup loadtest` (``loadtest`` and its ``players``, with ``fuzz`` and ``soak``), the
processes it starts (``fleet``, ``process``), readings of /proc (``procstat``), the store
benchmark (``bench_store``), coupml side by side (``bench_coupml``), and a small client
for tests and outside programs (``client``). The server imports nothing from here.
"""
