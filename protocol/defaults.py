"""The LAN layer's defaults: a table's timeouts and where beacons go.

Constants only, no imports: the command line shows them in its options' defaults (`host
--timeout`, `tables --listen`) before it loads the table machinery (`net.py`,
`discovery.py`), which takes them from here.
"""

HANDSHAKE_SECONDS = 5.0  # a new connection's TLS handshake and first message, together
ROSTER_SECONDS = 30.0  # for every joiner to sign the roster
HEARTBEAT_SECONDS = 3.0  # a seat says it is alive this often, even while a person thinks
SILENT_SECONDS = 15.0  # no word for this long: the seat (or the network) is silent
LEAVE_SECONDS = 120.0  # a seat gone this long forfeits, and the table ends
WATCH_SECONDS = 0.5  # how often the game loop looks for silent seats

DEFAULT_TARGET = ("255.255.255.255", 7778)  # where an open table's beacons go (UDP)
