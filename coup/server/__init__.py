"""coup.server: the online table (HTTP + websockets), `coup serve`.

The wire protocol is docs/protocol.md; how the server keeps it is docs/server.md.
`coup.server.app.create_app()` builds the Starlette app; `tools.load.client` is a small
client for tests and outside programs.
"""
