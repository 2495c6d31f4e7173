"""Suite-wide set-up."""

import signal


def pytest_configure() -> None:
    """Ctrl-C works in the programs the tests start, however the suite was launched: a
    shell runs a background job (`scripts/test &`) with SIGINT ignored, every child
    inherits that, and a test that interrupts a host before its game (the table's own
    handler comes later) then waited for a process that could not hear it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
