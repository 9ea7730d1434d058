"""Install the external tools the end-to-end tests drive (tmux, an SSH client).

Run by the README's test command and by .ci/run before pytest.  Uses apt-get (as root,
or through passwordless sudo) on Debian/Ubuntu; elsewhere it says what is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

TOOLS = {"tmux": "tmux", "ssh": "openssh-client", "unshare": "util-linux", "ip": "iproute2"}


def missing() -> list[str]:
    return [pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None]


def main() -> int:
    need = missing()
    if not need:
        return 0
    apt = shutil.which("apt-get")
    if apt is None:
        print(f"tests need these packages, please install them: {' '.join(need)}", file=sys.stderr)
        return 1
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(prefix + [apt, "-q", "update"], check=False, env=env, stdout=subprocess.DEVNULL)
    done = subprocess.run(prefix + [apt, "-q", "install", "-y", "--no-install-recommends", *need], env=env)
    if done.returncode != 0 or missing():
        print(f"could not install: {' '.join(missing())}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
