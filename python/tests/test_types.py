"""The package's types, as a host's type checker sees them."""

import pathlib
import subprocess
import sys


def test_a_hosts_code_type_checks_with_mypy_strict():
    usage = pathlib.Path(__file__).with_name("typed_usage.py")
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(usage)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
