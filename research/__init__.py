"""Research code that no command or API reaches: engines measured and retired, and the
record-board tools (counting bounds, DRAT certificates). Not installed with the package;
run from the project root (``python -m research.benchmarks.records ...``,
``python -m pytest research/tests``). See research/README.md."""
