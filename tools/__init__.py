"""tools: what measures and loads the product from outside it, run from a checkout.

Not part of the `coup` package (the wheel ships `coup` alone) and nothing in `coup/`
imports it: `coup bench` and `coup loadtest` find it by name when called, in the checkout
that holds the `coup` they run with (`coup/cli/__init__.py`).

- `tools.bench`: speed — the engine, the learning adapters, the cores, coupml side by
  side, a move's server CPU, the store's write (`coup bench`).
- `tools.load`: the server under load — `coup loadtest` (with `--fuzz`, `--soak`), the
  processes it starts, and a small client for tests and outside programs.
- `tools.signature`: a bot's measured style; `tools.coach_check`: is the coach right?
"""
