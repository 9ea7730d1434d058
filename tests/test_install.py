"""What `pip install` puts in site-packages: one package, `modernart`, with net/ and cli/ inside it
as `modernart.net` and `modernart.cli` (pyproject's package-dir mapping), and nothing named `net`
or `cli` at the top; and a checkout runs without installing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"modernart": "modernart", "net": "modernart/net", "cli": "modernart/cli"}


def _checkout_sources() -> set[str]:
    """Every source file of the three folders, by the path it has once installed."""
    files = set()
    for folder, installed in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            if "__pycache__" not in path.parts:
                files.add(f"{installed}/{path.relative_to(ROOT / folder).as_posix()}")
    return files


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("modernart-*.whl")
    return built


@pytest.mark.timeout(300)
def test_the_wheel_holds_one_package_with_every_module(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"modernart", f"modernart-{wheel.name.split('-')[1]}.dist-info"}, sorted(tops)
    assert _checkout_sources() <= set(names), sorted(_checkout_sources() - set(names))
    assert not any(name.startswith(("modernart/tests/", "modernart/benchmarks/")) for name in names)


@pytest.mark.timeout(300)
def test_the_wheel_carries_the_client_catalogs(wheel: Path, tmp_path: Path) -> None:
    """Every language's compiled catalog is in the wheel, and the installed client speaks it."""
    names = set(zipfile.ZipFile(wheel).namelist())
    catalogs = {f"modernart/cli/{p.relative_to(ROOT / 'cli').as_posix()}" for p in (ROOT / "cli/locale").rglob("*.mo")}
    assert catalogs and catalogs <= names, sorted(catalogs - names)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = (
        "from modernart.cli.i18n import use_language, pgettext; "
        "use_language('zh'); print(pgettext('artist', 'Lite Metal'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(site)),
        capture_output=True,
        text=True,
        timeout=60,
        encoding="utf-8",
    )
    assert done.returncode == 0 and done.stdout.strip() == "轻金属", done.stderr


@pytest.mark.timeout(300)
def test_the_installed_package_runs_without_the_checkout(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = dict(os.environ, PYTHONPATH=str(site))
    probe = (
        "import importlib.util, modernart.net.client.client as c, modernart.cli.main as m; "
        "print(c.__file__); print(m.__file__); "
        "print(importlib.util.find_spec('net'), importlib.util.find_spec('cli'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    client, main, specs = done.stdout.splitlines()
    assert client.startswith(str(site)) and main.startswith(str(site))
    assert specs == "None None"  # no top-level net or cli came with it
    done = subprocess.run(
        [sys.executable, "-m", "modernart", "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "play" in done.stdout, done.stderr


@pytest.mark.timeout(120)
def test_a_checkout_runs_without_installing(tmp_path: Path) -> None:
    """A copy of the checkout (not the installed one) is found from its own folder: modernart.net
    is its net/ and modernart.cli its cli/."""
    copy = tmp_path / "checkout"
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    probe = "import modernart.net.host.host as h, modernart.cli.main as m; print(h.__file__); print(m.__file__)"
    env = dict(os.environ, PYTHONPATH=str(copy))
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    host, main = done.stdout.splitlines()
    assert host == str(copy / "net" / "host" / "host.py") and main == str(copy / "cli" / "main.py")


#: folders of a checkout that are not packages of the install
NOT_PACKAGES = ("tests", "benchmarks", "docs", "modernart", "net.net", "cli.cli")


@pytest.mark.timeout(120)
def test_a_checkout_exposes_only_net_and_cli_beside_the_game(tmp_path: Path) -> None:
    """From a checkout, `modernart.net` and `modernart.cli` are its folders, and no other folder of
    the checkout is a subpackage: `modernart.tests` once imported, and `modernart.modernart`
    contained itself, so walking the package never ended."""
    copy = tmp_path / "checkout"
    for folder in (*FOLDERS, "tests", "benchmarks"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    probe = (
        "import importlib.util, pkgutil, modernart, modernart.net, modernart.cli\n"
        f"for name in {NOT_PACKAGES!r}:\n"
        "    print(name, importlib.util.find_spec('modernart.' + name) is None)\n"
        "print('walked', sorted({m.name.split('.')[1] for m in pkgutil.walk_packages(modernart.__path__, 'modernart.')}))\n"
        "print('path', modernart.__path__, modernart.net.__path__, modernart.cli.__path__)\n"
    )
    runs = [(dict(os.environ, PYTHONPATH=str(copy)), tmp_path, copy), (dict(os.environ), ROOT, ROOT)]
    for env, cwd, home in runs:  # a copy of the checkout on the path; the checkout this suite installed
        done = subprocess.run(
            [sys.executable, "-c", probe], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[: len(NOT_PACKAGES)] == [f"{name} True" for name in NOT_PACKAGES], lines
        walked = lines[len(NOT_PACKAGES)]
        assert "tests" not in walked and "benchmarks" not in walked and "'modernart'" not in walked, walked
        assert "'bots'" in walked, walked
        assert lines[-1] == f"path {[str(home / 'modernart')]} {[str(home / 'net')]} {[str(home / 'cli')]}", lines
