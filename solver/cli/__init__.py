"""The ``blokus-solo`` command line: commands, printed output and the terminal board."""
