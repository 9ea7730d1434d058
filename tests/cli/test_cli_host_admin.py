"""`modernart host --headless` names its admin on the command line, and the CLI says in one
line what is wrong with a file it cannot use (issue 25 items 6 and 7): a corrupt
`host.key`, one other users may read (a warning), a record nested 100,000 deep, a journal
given to `audit`.  Real processes; each of these printed a traceback, used the key
without a word, or made the first to sit the admin on a2b2fc2, as each test says."""

from __future__ import annotations

import asyncio
import os
import subprocess

import pytest

from modernart.cli.tui.child_process import ChildProcess
from modernart.net.client.client import Client
from modernart.net.lan.address import parse_join_string
from modernart.net.trust.identity import Keys

from tests.net_helpers import PY, ROOT, env, keyed_table, run

pytestmark = pytest.mark.timeout(60)


def modernart(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PY, "-m", "modernart.cli.main", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env()
    )


def headless(config: str, *extra: str) -> list[str]:
    return [PY, "-m", "modernart.cli.main", "host", "--headless", "--until-stdin-closes", "--bind", "127.0.0.1",
            "--port", "0", "--no-beacon", "--config-dir", config, *extra]  # fmt: skip


async def _join_string(host: ChildProcess) -> str:
    while True:
        line = await asyncio.wait_for(host.readline(), 30)
        assert line, "the host ended before its join string"
        if line.startswith(b"join string:"):
            return line.decode().split(":", 1)[1].strip()


async def _headless_admin(tmp, named: bool) -> dict:
    owner_dir = tmp / "owner"
    owner = Keys.load_or_create(str(owner_dir), "player")
    extra = ["--admin-key", str(owner_dir / "player.key")] if named else []
    host = await ChildProcess.start(headless(str(tmp / "hostcfg"), *extra), cwd=str(ROOT))
    clients: list[Client] = []
    try:
        target = parse_join_string(await _join_string(host))
        stranger, admin = Client(target, keys=Keys.generate()), Client(target, keys=owner)
        clients += [stranger, admin]
        for c in clients:
            await c.connect()
        assert (await stranger.take_seat("Mallory")).ok  # the first to sit
        return {
            "stranger": (await stranger.add_bot("random")).code,
            "admin": (await admin.add_bot("random")).code or "ok",
        }
    finally:
        for c in clients:
            await c.close()
        host.close_stdin()
        await asyncio.wait_for(host.wait(), 15)


def test_a_headless_host_s_admin_is_the_key_it_names_never_the_first_to_sit(tmp_path):
    """On a2b2fc2 a `--headless` host made the first key to sit its admin (checked: the
    stranger's add_bot was accepted); `--admin-key` was a hidden flag taking hex only."""
    named = run(_headless_admin(tmp_path / "a", named=True), 50)
    assert named == {"stranger": "not_admin", "admin": "ok"}, named
    nobody = run(_headless_admin(tmp_path / "b", named=False), 50)
    assert nobody == {"stranger": "not_admin", "admin": "not_admin"}, nobody


def test_a_bad_admin_key_is_one_line():
    done = modernart("host", "--headless", "--no-beacon", "--admin-key", "not-a-key-file")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "--admin-key" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "content", ['{"version": 1, "ed25519": 5', '{"version": 1, "ed25519": "00", "curve_secret": 7}', "\x00\xff"]
)
def test_a_corrupt_host_key_is_one_line_not_a_traceback(tmp_path, content):
    """On a2b2fc2 a corrupt host.key ended `modernart host` in a traceback (checked)."""
    (tmp_path / "host.key").write_text(content, encoding="latin-1")
    os.chmod(tmp_path / "host.key", 0o600)
    done = modernart("host", "--headless", "--no-beacon", "--bind", "127.0.0.1", "--port", "0", "--config-dir",
                     str(tmp_path))  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "host.key" in done.stderr, done.stderr


def test_a_host_key_others_may_read_is_used_with_a_warning(tmp_path):
    """On a2b2fc2 a world-readable host.key was used without a word (checked)."""
    Keys.load_or_create(str(tmp_path), "host")
    os.chmod(tmp_path / "host.key", 0o644)
    proc = subprocess.Popen(
        headless(str(tmp_path)), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=ROOT, env=env(),
    )  # fmt: skip
    try:
        line = ""
        while not line.startswith("join string:"):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
        proc.stdin.close()
        proc.wait(20)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert "warning" in err and "host.key" in err and "chmod 600" in err, err


def test_a_record_nested_100000_deep_is_one_line(tmp_path):
    """On a2b2fc2 `replay` and `audit` of `[[[[...` ended in a RecursionError traceback (checked)."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    for command in ("replay", "audit"):
        done = modernart(command, str(path))
        text = done.stdout + done.stderr
        assert done.returncode == 2 and "Traceback" not in text, text[-400:]
        assert "nested too deeply" in text and text.strip().count("\n") == 0, text[-400:]


def test_audit_of_a_journal_says_to_audit_the_record(tmp_path):
    """On a2b2fc2 `audit GAME.jsonl` printed the raw error of a transcript it could not
    open (checked: "cannot read ….jsonl.transcript: [Errno 2] ...")."""
    table, driver = keyed_table(tmp_path, players=3)
    driver.seed_all()
    driver.play(3)
    table.game.journal.close()
    done = modernart("audit", table.journal_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "journal" in done.stderr and "record" in done.stderr and "Errno" not in done.stderr, done.stderr
