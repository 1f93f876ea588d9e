"""tools.bench: how fast the product runs, measured side by side (`coup bench`).

``suite`` is `coup bench`: the engine's own measures (``engine``) next to coupml
(``coupml``), the learning environments (``envs``) and the compiled core against the pure
one (``cores``); ``store`` is `coup bench --store`; ``move`` a move's server CPU in
process.
"""
