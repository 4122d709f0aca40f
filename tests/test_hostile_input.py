"""Hostile input: deep nesting is bad input (one line naming the file, exit 2)."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from helpers import PUZZLES, one_line_error, run_cli

# brackets or tables one inside another, in the file formats that allow them
NESTED = {
    "toml array": ("puzzle.toml", lambda n: 'title = "x"\nx = ' + "[" * n + "]" * n),
    "toml inline table": ("puzzle.toml", lambda n: "x = " + "{a=" * n + "1" + "}" * n),
    "json array": ("solution.json", lambda n: "[" * n + "]" * n),
    "json object": ("solution.json", lambda n: '{"a":' * n + "1" + "}" * n),
}


@pytest.mark.parametrize("kind", NESTED)
@pytest.mark.parametrize("depth", [500, 900, 100_000])
def test_deep_nesting_is_bad_input(tmp_path, kind, depth):
    name, text = NESTED[kind]
    path = tmp_path / name
    path.write_text(text(depth))
    commands = [("show", path)]
    commands.append(("verify", path) if name.endswith(".json") else ("solve", path))
    for command in commands:
        line = one_line_error(run_cli(*command), str(path))
        assert "nested too deeply" in line


def test_deep_nesting_in_a_batch_is_an_error_row(tmp_path):
    """A batch goes on past it: the file is an error row, not the end of the run."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "deep.toml").write_text("x = " + "[" * 2000 + "]" * 2000)
    result = run_cli("batch", tmp_path / "in", "--out", tmp_path / "out", "--jobs", 1, "--plain")
    assert result.exit_code in (0, 1), result.output
    rows = (tmp_path / "out" / "results.jsonl").read_text()
    assert "nested too deeply" in rows


# messages: user text escaped (one line) and cut (bounded output)

HOSTILE_NAMES = ["new\nline.toml", "esc\x1b[2Jape.toml", "bidi\u202eevil.toml", "bell\x07.json"]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("command", ["solve", "show", "verify", "count", "check"])
def test_control_characters_in_file_names_are_escaped(tmp_path, name, command):
    path = tmp_path / name
    path.write_text("not a puzzle = = =")
    line = one_line_error(run_cli(command, path))
    raw = [ch for ch in name if not ch.isprintable()]
    assert raw and not any(ch in line for ch in raw), repr(line)
    assert repr(raw[0])[1:-1] in line  # as Python writes it: \n, \x1b, \u202e


def test_a_long_user_text_is_cut_in_output(tmp_path):
    """A 10 MB title (with an escape sequence at the end) prints as one short line."""
    text = (PUZZLES / "tiny-5x5-corner.toml").read_text()
    title = "T" * 10_000_000 + "\\u001b[2J"
    path = tmp_path / "big.toml"
    path.write_text(f'title = "{title}"\n' + text.split("\n", 1)[1])
    result = run_cli("solve", path, "--plain")
    assert result.exit_code == 0, result.output[:500]
    first = result.output.splitlines()[0]
    assert first.startswith("TTT") and "…" in first and first.endswith("\\x1b[2J")
    assert len(first) <= 200 and "\x1b" not in result.output
    assert len(result.output) < 2_000


def test_a_long_key_in_an_error_is_cut(tmp_path):
    path = tmp_path / "key.toml"
    path.write_text("k" * 1_000_000 + " = 1\n")
    line = one_line_error(run_cli("solve", path), str(path), "…")
    assert len(line) < 1_000


def _garbage_server(reply: bytes):
    """A TCP server on 127.0.0.1 that answers every connection with ``reply`` (not Dask's
    protocol), for at most 20 s; returns its port and a function that stops it."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve():
        deadline = time.monotonic() + 20
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(reply)
                time.sleep(0.2)
        server.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()

    def close():
        stop.set()
        thread.join(5)

    return server.getsockname()[1], close


@pytest.mark.parametrize(
    "reply",
    [b"GARBAGE GARBAGE GARBAGE\n", b"HTTP/1.1 400 Bad Request\r\n\r\n", b"", b"\x00" * 8],
    ids=["text", "http", "nothing-then-close", "zero-length"],
)
def test_a_server_that_is_not_a_dask_scheduler_is_named(tmp_path, reply):
    pytest.importorskip("distributed")
    port, close = _garbage_server(reply)
    try:
        started = time.monotonic()
        result = run_cli(
            "batch", PUZZLES / "tiny-5x5-corner.toml", "--out", tmp_path / "out",
            "--scheduler", f"tcp://127.0.0.1:{port}", "--plain",
        )  # fmt: skip
        seconds = time.monotonic() - started
    finally:
        close()
    one_line_error(result, "--scheduler", "not a Dask scheduler", f"127.0.0.1:{port}")
    assert "MemoryError" not in result.output and seconds < 10


def test_a_real_dask_scheduler_passes_the_probe():
    """The probe reads the scheduler's handshake length as Dask frames it: a real one on
    TCP is let through (no false refusal)."""
    distributed = pytest.importorskip("distributed")
    from solver.batch.pools import probe_scheduler

    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://")
        probe_scheduler(cluster.scheduler_address)  # raises if it took it for another service


def test_control_characters_in_a_name_in_normal_output_are_escaped(tmp_path):
    """Not only errors: a name printed in a command's normal output stays on its line."""
    path = tmp_path / "two\nlines\x1b[31m.toml"
    path.write_bytes((PUZZLES / "cards" / "avoid-1-easy.toml").read_bytes())
    for args in (["rate", path, "--playouts", 10], ["solve", path, "--plain"]):
        result = run_cli(*args)
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "two\\nlines\\x1b[31m.toml" in result.output
        assert not any(line.startswith("lines") for line in result.output.splitlines())


@pytest.mark.parametrize("name", ["a\x00b.toml", "x\ud800.toml", ""])
def test_a_file_name_no_file_system_takes_is_bad_input_everywhere(tmp_path, name):
    """A NUL character or an unencodable character reaches no system call (Python raised
    ValueError: "internal error"), and an empty name is not the current folder."""
    import solver.api as blokus
    from solver.errors import InputError
    from solver.formats.files import check_output, check_output_folder, write_text_atomic

    for door in (
        lambda: blokus.load(name),
        lambda: write_text_atomic(name, "x"),
        lambda: check_output(name),
        lambda: check_output_folder(name),
    ):
        with pytest.raises(InputError) as e:
            door()
        assert str(e.value).isprintable() and "file name" in str(e.value)


def test_a_byte_that_is_not_utf8_is_escaped_in_messages():
    from solver.quoting import shown

    # a file name from the command line (surrogateescape): no strict stream can write it
    assert shown("a\udcffb.toml") == "a\\udcffb.toml"
