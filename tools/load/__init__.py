"""tools.load: what drives a server from outside it, over loopback.

`coup loadtest` (``loadtest``): the load itself, measured (``measure``, its ``players``),
or bad messages (``fuzz``), or the load watched over time and a kill -9 (``soak``); the
processes it starts (``fleet``, ``process``), readings of /proc (``procstat``), and a
small client for tests and outside programs (``client``). The server imports nothing
from here.
"""
