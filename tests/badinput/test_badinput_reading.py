"""Files that cannot be read within bounds, or cannot be read at all: refused with `path[:line]: reason`.

Long lines, lines without end, gzip bombs, FIFOs, devices, folders, missing or unreadable paths,
files that vanish or are replaced during an import. Each one exits 1 with one `Error:` line and
leaves the workbench byte-identical; none blocks, none reads a bomb whole, none is a traceback.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
from pathlib import Path

import pytest
from badinput_support import Unchanged, assert_no_crash, assert_refused, command, invoke, stored

from labeler.store import Store

MiB = 1 << 20
RUN = "301 Q0 d1 1 2.0 t\n301 Q0 d2 2 1.0 t\n"
LONG = os.urandom(MiB // 2 + 10).hex()  # over 1 MiB, and random: gzip does not shrink it past any ratio limit
TOO_LONG = "line longer than 1 MiB (pass --max-line-bytes to raise the limit)"

# One file per importer, each with a line past the default limit of 1 MiB, on the line given.
LONG_LINES = [
    ("run", "long.run", f"301 Q0 d1 1 2.0 t\n301 Q0 {LONG} 2 1.0 t\n", 2),
    ("qrels", "long.qrels", f"301 0 d1 1\n301 0 {LONG} 1\n", 2),
    ("corpus", "long.tsv", f"d1\tshort\nd2\t{LONG}\n", 2),
    ("topics", "long.tsv", f"301\t{LONG}\n", 1),
    ("mapping", "long.tsv", f"d1#0 d1\nd1#{LONG} d1\n", 2),
    ("derive", "long.txt", f"d1#0\nd1#{LONG}\n", 2),
    ("scale", "long.tsv", f"0\tno\t{LONG}\n1\tyes\tYes.\nthreshold\t1\n", 1),
]


@pytest.mark.parametrize(
    ("importer", "name", "text", "line"), LONG_LINES, ids=[f"{row[0]}-{row[1]}" for row in LONG_LINES]
)
@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzip"])
def test_a_line_over_the_limit_is_refused_by_every_importer(workbench, tmp_path, importer, name, text, line, compress):
    data = text.encode()
    path = tmp_path / (name + (".gz" if compress else ""))
    path.write_bytes(gzip.compress(data) if compress else data)
    with Unchanged(workbench):
        result = invoke(workbench, command(importer, path))
    assert_refused(result, path, line, TOO_LONG)


@pytest.mark.parametrize("importer", ["run", "qrels", "corpus", "topics"])
def test_one_huge_line_without_a_newline_is_refused_at_line_1(workbench, tmp_path, importer):
    path = tmp_path / "one.line"
    with open(path, "wb") as handle:  # 16 MiB of one line: a stand-in for a 2 GB one
        for _ in range(16):
            handle.write(b"x" * MiB)
    with Unchanged(workbench):
        result = invoke(workbench, command(importer, path))
    assert_refused(result, path, 1, TOO_LONG)


def test_max_line_bytes_raises_the_limit_and_the_file_imports(workbench, tmp_path):
    path = tmp_path / "long.run"
    # the long field is the run tag: an id that long breaks the id rule (512 characters) instead
    path.write_text(f"301 Q0 d1 1 2.0 {LONG}\n301 Q0 d2 2 1.0 {LONG}\n")
    result = invoke(workbench, [*command("run", path), "--max-line-bytes", "2M"])
    assert result.exit_code == 0, result.stderr
    assert stored("run", workbench) == {"301": ("d1", "d2")}


def test_max_line_bytes_can_also_lower_the_limit(workbench, tmp_path):
    path = tmp_path / "small.qrels"
    path.write_text("301 0 d1 1\n301 0 d2-is-long 1\n")
    with Unchanged(workbench):
        result = invoke(workbench, [*command("qrels", path), "--max-line-bytes", "12"])
    assert_refused(result, path, 2, "line longer than 12 bytes")


def test_a_size_that_is_not_a_size_is_a_usage_error(workbench, tmp_path):
    path = tmp_path / "r.run"
    path.write_text(RUN)
    with Unchanged(workbench):
        result = invoke(workbench, [*command("run", path), "--max-line-bytes", "lots"])
    assert result.exit_code == 2 and "is not a size" in result.stderr


def bomb(tmp_path: Path, megabytes: int) -> Path:
    """`megabytes` MiB of zeros as gzip members of 1 MiB each (about 1 KiB compressed per MiB)."""
    member = gzip.compress(bytes(MiB), compresslevel=9)
    path = tmp_path / "bomb.run.gz"
    path.write_bytes(member * megabytes)
    return path


def test_a_gzip_bomb_is_refused_with_the_default_limits_before_it_is_read(workbench, tmp_path, monkeypatch):
    path = bomb(tmp_path, 2048)  # 2 GiB of zeros in 2 MB
    decompressed = []
    read1 = gzip.GzipFile.read1

    def counting(self, size=-1):
        data = read1(self, size)
        decompressed.append(len(data))
        return data

    monkeypatch.setattr(gzip.GzipFile, "read1", counting)
    with Unchanged(workbench):
        result = invoke(workbench, command("run", path))
    assert_refused(result, path, None, "gzip data expands more than 100 times its compressed size")
    assert "--max-gzip-ratio" in result.stderr
    assert sum(decompressed) < 4 * MiB  # a few MiB decompressed, not 2 GiB


def compressible_run(tmp_path: Path) -> tuple[Path, int]:
    """A real run of 4 MiB that compresses about 200 times: legal, but past a lowered ratio."""
    line = b"301 Q0 d1 1 2.0 t\n"
    data = line * (4 * MiB // len(line))
    path = tmp_path / "big.run.gz"
    path.write_bytes(gzip.compress(data, compresslevel=9))
    return path, len(data) // len(path.read_bytes())


def test_a_lowered_gzip_ratio_refuses_a_file_and_the_default_reads_it(workbench, tmp_path):
    path, ratio = compressible_run(tmp_path)
    assert ratio > 50
    with Unchanged(workbench):
        result = invoke(workbench, [*command("run", path), "--max-gzip-ratio", "20", "--dedupe", "first"])
    assert_refused(result, path, None, "gzip data expands more than 20 times its compressed size")
    result = invoke(workbench, [*command("run", path), "--max-gzip-ratio", "1000", "--dedupe", "first"])
    assert result.exit_code == 0, result.stderr


def test_gzip_data_past_max_gzip_bytes_is_refused(workbench, tmp_path):
    path, _ = compressible_run(tmp_path)
    with Unchanged(workbench):
        result = invoke(workbench, [*command("run", path), "--max-gzip-bytes", "2M", "--max-gzip-ratio", "1000"])
    assert_refused(result, path, None, "gzip data expands to more than 2 MiB (pass --max-gzip-bytes")


def test_the_limits_can_come_from_the_environment(workbench, tmp_path, monkeypatch):
    path, _ = compressible_run(tmp_path)
    monkeypatch.setenv("LABELER_MAX_GZIP_RATIO", "10")
    with Unchanged(workbench):
        result = invoke(workbench, command("run", path))
    assert_refused(result, path, None, "expands more than 10 times")


def invoke_with_timeout(db: Path, args: list, fifo: Path, seconds: float = 20):
    """Invoke in a thread; if it blocks on the FIFO, open the FIFO's other end to free it, then fail."""
    outcome = {}
    thread = threading.Thread(target=lambda: outcome.setdefault("result", invoke(db, args)), daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        thread.join(5)
        pytest.fail(f"{args[:2]} blocked on a FIFO")
    return outcome["result"]


FIFO_COMMANDS = {
    "run": command("run", Path("{fifo}")),
    "qrels": command("qrels", Path("{fifo}")),
    "topics": command("topics", Path("{fifo}")),
    "corpus": command("corpus", Path("{fifo}")),
    "mapping": command("mapping", Path("{fifo}")),
    "scale": None,  # `init` makes a new workbench: tested apart
    "merge": ["merge", "{fifo}"],
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("importer", [name for name, args in FIFO_COMMANDS.items() if args])
def test_a_fifo_is_refused_without_blocking(workbench, tmp_path, importer):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    args = [str(part).replace("{fifo}", str(fifo)) for part in FIFO_COMMANDS[importer]]
    with Unchanged(workbench):
        result = invoke_with_timeout(workbench, args, fifo)
    assert_refused(result, fifo, None, "is a named pipe (FIFO), not a regular file")


@pytest.mark.parametrize("importer", ["run", "qrels", "topics", "corpus"])
def test_a_device_is_refused(workbench, importer):
    with Unchanged(workbench):
        result = invoke(workbench, command(importer, Path("/dev/zero")))
    assert_refused(result, "/dev/zero", None, "is a device, not a regular file")


def test_a_folder_given_to_merge_is_refused_with_exit_1_not_a_usage_error(workbench, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", folder])
    assert_refused(result, folder, None, "is a folder, not a regular file")


@pytest.mark.parametrize("importer", ["run", "qrels", "topics", "corpus", "mapping", "scale"])
def test_a_path_through_a_file_is_refused(workbench, tmp_path, importer):
    (tmp_path / "plain.txt").write_text("x\n")
    path = tmp_path / "plain.txt" / "inside.run"
    with Unchanged(workbench):
        result = invoke(workbench, command(importer, path))
    assert_refused(result, path, None, "no such file")


def test_a_missing_folder_is_refused(workbench, tmp_path):
    path = tmp_path / "no" / "such" / "folder" / "r.run"
    with Unchanged(workbench):
        result = invoke(workbench, command("run", path))
    assert_refused(result, path, None, "no such file")


def test_merging_a_missing_log_is_refused(workbench, tmp_path):
    path = tmp_path / "gone.jsonl"
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", path])
    assert_refused(result, path, None, "no such file")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file: see the simulated case")
def test_an_unreadable_file_is_refused(workbench, tmp_path):
    path = tmp_path / "secret.run"
    path.write_text(RUN)
    path.chmod(0)
    with Unchanged(workbench):
        result = invoke(workbench, command("run", path))
    assert_refused(result, path, None, "permission denied")


@pytest.mark.parametrize("importer", ["run", "qrels", "topics", "corpus"])
def test_an_unreadable_file_is_refused_simulated(workbench, tmp_path, monkeypatch, importer):
    """As root ignores file modes, the open is made to fail as it does for other users."""
    path = tmp_path / "secret.txt"
    path.write_text(RUN)
    real_open = os.open

    def refusing(name, flags, *args, **kwargs):
        if os.fspath(name) == str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing)
    with Unchanged(workbench):
        result = invoke(workbench, command(importer, path))
    assert_refused(result, path, None, "permission denied")


def test_a_file_that_vanishes_between_reads_is_refused(workbench, tmp_path, monkeypatch):
    from labeler.formats import runs

    path = tmp_path / "gone.run"
    path.write_text(RUN)
    detect = runs.RunReader._detect

    def detect_then_vanish(self):
        kind = detect(self)
        path.unlink()  # after the format was detected, before the results are read
        return kind

    monkeypatch.setattr(runs.RunReader, "_detect", detect_then_vanish)
    with Unchanged(workbench):
        result = invoke(workbench, command("run", path))
    assert_refused(result, path, None, "no such file")


def test_a_read_error_mid_file_is_refused(workbench, tmp_path, monkeypatch):
    from labeler.formats import lines

    path = tmp_path / "bad.run"
    path.write_text(RUN * 100)

    def failing(self, raw, digest):
        yield raw.read(40)
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(lines.TextLines, "_plain", failing)
    with Unchanged(workbench):
        result = invoke(workbench, command("run", path))
    assert_refused(result, path, 3, "cannot read: Input/output error")


def test_a_file_replaced_during_import_records_the_hash_of_the_bytes_read(workbench, tmp_path, monkeypatch):
    from labeler.formats import runs

    original = "".join(f"30{t} Q0 d{i} {i} {100 - i}.0 t\n" for t in range(1, 4) for i in range(1, 50)).encode()
    path = tmp_path / "moving.run"
    path.write_bytes(original)
    replacement = b"301 Q0 other 1 1.0 t\n"
    blocks = runs.RunReader.blocks

    def replace_after_the_first_topic(self):
        for number, block in enumerate(blocks(self)):
            if number == 0:
                (tmp_path / "new.run").write_bytes(replacement)
                os.replace(tmp_path / "new.run", path)  # as `mv` or an editor's save does
            yield block

    monkeypatch.setattr(runs.RunReader, "blocks", replace_after_the_first_topic)
    result = invoke(workbench, [*command("run", path), "--json"])
    assert_no_crash(result)
    assert result.exit_code == 0, result.stderr
    with Store(workbench) as store:
        info = store.run("new")
    assert info.entries == 3 * 49  # what was read: the original file
    assert info.source_sha256 == hashlib.sha256(original).hexdigest()
    assert info.source_sha256 != hashlib.sha256(replacement).hexdigest()


def test_an_oserror_escaping_a_command_is_one_error_line(workbench, tmp_path, monkeypatch):
    from labeler.cli import runs as services  # the command's own name for the use case

    path = tmp_path / "r.run"
    path.write_text(RUN)

    def vanished(*args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", str(path))

    monkeypatch.setattr(services, "import_runs", vanished)
    with Unchanged(workbench):
        result = invoke(workbench, command("run", path))
    assert_refused(result, path, None, "no such file or directory")


def test_init_with_a_fifo_as_scale_does_not_block_or_create_a_workbench(tmp_path):
    fifo = tmp_path / "scale.tsv"
    os.mkfifo(fifo)
    db = tmp_path / "new" / "wb.db"
    db.parent.mkdir()
    result = invoke_with_timeout(db, ["init", "--scale", fifo], fifo)
    assert_refused(result, fifo, None, "is a named pipe")
    assert list(db.parent.iterdir()) == []
