"""tools.load: what drives a server from outside it, over loopback.

`coup loadtest` (``loadtest`` and its ``players``, with ``fuzz`` and ``soak``), the
processes it starts (``fleet``, ``process``), readings of /proc (``procstat``), and a
small client for tests and outside programs (``client``). The server imports nothing
from here.
"""
