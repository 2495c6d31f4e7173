"""The program's exit codes (docs/cli.md), in a module light enough to import first."""

USAGE = 2  # bad command-line input
FAILURE = 1  # something went wrong while running
INTERRUPTED = 130  # Ctrl-C, or the person left: the shells' 128 + SIGINT
