"""All that passes between peers: wire format, identities, mental poker, tables.

Built by the issues after the foundation; empty until then.
"""
