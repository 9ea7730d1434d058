"""The benchmarks run from the checkout (`python -m benchmarks WHAT`), print their figures
with the machine beside them, and are not part of the installed package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = [sys.executable, "-m", "benchmarks"]


@pytest.mark.timeout(60)
def test_every_benchmark_is_listed():
    done = subprocess.run(BENCHMARKS + ["--help"], cwd=ROOT, capture_output=True, text=True, timeout=50)
    assert done.returncode == 0, done.stderr
    for name in ("engine", "bots", "net", "fairplay", "client", "memory"):
        assert name in done.stdout


@pytest.mark.timeout(120)
def test_bench_bots_prints_its_figures_as_json():
    done = subprocess.run(
        BENCHMARKS + ["bots", "--seconds", "0.2", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=110
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["machine"]["cores"] and figures["medium"]["decisions"] > 0
    assert 0 < figures["medium"]["p50_ms"] <= figures["medium"]["p95_ms"] <= figures["medium"]["max_ms"]
    assert figures["hard"]["setting"] == "the table's" and figures["hard"]["decisions"] > 0
    assert figures["hard"]["budget_s"] == 1.0 and 0 < figures["hard"]["cpu_p95_ms"] <= figures["hard"]["cpu_max_ms"]
    # every level's decision times, the styled arena opponents' too, and hard's rollout rate
    for level in ("random", "overbidder", "underbidder", "hoarder", "highseller", "earlycloser", "plain"):
        assert 0 <= figures[level]["p50_ms"] <= figures[level]["p95_ms"], level
    assert figures["hard"]["p50_ms"] <= figures["hard"]["p95_ms"]
    assert figures["hard"]["rollouts_per_s"] > 0 and figures["hard"]["rollouts_per_cpu_s"] > 0


@pytest.mark.timeout(120)
def test_bench_engine_prints_its_figures_as_json():
    done = subprocess.run(
        BENCHMARKS + ["engine", "--seconds", "0.2", "--repeat", "1", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["machine"]["date"] and figures["selfplay_4p"]["games_per_s"] > 0


@pytest.mark.timeout(300)
def test_bench_engine_compares_with_an_older_commit_side_by_side():
    """`--against REV` unpacks that commit's engine and runs the same workloads there and
    here alternately, in one run: both figures, the ratio, and the same games played."""
    done = subprocess.run(
        BENCHMARKS + ["engine", "--against", "HEAD", "--seconds", "0.2", "--repeat", "2", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["old"].startswith("commit ") and figures["machine"]["date"]
    for workload in ("selfplay", "rollouts"):
        f = figures[workload]
        assert f["old_per_s"] > 0 and f["new_per_s"] > 0 and f["same_games"]
        assert f["ratio"] == pytest.approx(f["new_per_s"] / f["old_per_s"])
        assert len(f["old_runs"]) == len(f["new_runs"]) == 2
    assert figures["target_ratio"] == 1.2
    bad = subprocess.run(
        BENCHMARKS + ["engine", "--against", "no-such-commit"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert bad.returncode != 0 and "not a commit" in bad.stderr


@pytest.mark.timeout(300)
def test_bench_client_measures_play_and_offline_start_up_alternately(tmp_path):
    """`client --startup-only`: `play` and `play --offline` to their first table frame, in
    one run, alternately, with the ratio against its target."""
    done = subprocess.run(
        BENCHMARKS + ["client", "--startup-only", "--repeat", "2", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")},
    )
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)["startup"]
    assert s["startup_offline_s"] > 0 and s["startup_protocol_s"] > 0
    assert s["ratio"] == pytest.approx(s["startup_protocol_s"] / s["startup_offline_s"])
    assert len(s["runs"]["startup_offline_s"]) == len(s["runs"]["startup_protocol_s"]) == 2
    assert s["target_ratio"] == 1.3 and s["target_met"] == (s["ratio"] <= 1.3)


@pytest.mark.timeout(300)
def test_bench_client_starts_an_older_commit_in_turn_with_this_one(tmp_path):
    """`client --startup-only --against REV`: that commit's `play` and `play --offline`
    (unpacked into a temporary directory) started in turn with this checkout's, in one run."""
    done = subprocess.run(
        BENCHMARKS + ["client", "--startup-only", "--repeat", "1", "--against", "HEAD", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")},
    )
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)["startup"]
    before = s["before"]
    assert len(before["commit"]) == 40 and before["startup_offline_s"] > 0 and before["startup_protocol_s"] > 0
    assert before["ratio"] == pytest.approx(before["startup_protocol_s"] / before["startup_offline_s"])
    assert {len(times) for times in s["runs"].values()} == {1} and len(s["runs"]) == 4
    assert len(s["load_average"]) == 2


@pytest.mark.timeout(240)
def test_bench_net_knows_the_floor():
    """The net benchmark measures the floor in the same run and puts the latency beside it
    (the quick mode, its 1-process part only here)."""
    done = subprocess.run(
        BENCHMARKS + ["net", "--quick", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=230,
        env={**os.environ, "MODERNART_BENCH_PARTS": "latency"},
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    work = figures["work"]
    assert figures["quick"] and work["sign_us"] > 0 and work["verify_us"] > 0
    assert work["host_us"] > 0 and work["client_us"] > 0 and work["moves"] > 0
    floor = figures["bare_rtt_p50_ms"] + (work["sign_us"] + work["host_us"] + 5 * work["client_us"]) / 1e3
    assert abs(figures["floor_1proc_ms"] - floor) < 1e-9
    lat = figures["latency_disk"]
    assert lat["samples"] > 0 and 0 < lat["p50_ms"] <= lat["p99_ms"]
    assert lat["sealed_auctions"] > 0 and lat["sealed_p50_ms"] > 0  # Sealed auctions are timed whole


@pytest.mark.timeout(60)
def test_the_installed_command_has_no_bench():
    """`modernart bench` is gone: the benchmarks need a checkout (they are not installed)."""
    done = subprocess.run(
        [sys.executable, "-m", "modernart.cli.main", "bench", "engine"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=50,
    )
    assert done.returncode == 2 and "invalid choice: 'bench'" in done.stderr
