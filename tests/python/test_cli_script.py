"""The attnc command line that the Python package carries: `python -m attnc` and, installed, the
`attnc` console script run the binary built with the extension (attnc/_cli.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import attnc

WINDOW = "import std.masks;\nkernel window { mask = sliding_window(16); }\n"


def _attnc(*args, cwd):
    # The package under test (a build tree's, or the installed one), wherever the test runs from.
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(attnc.__file__))))
    return subprocess.run([sys.executable, "-m", "attnc", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_python_m_attnc_checks_and_draws(tmp_path):
    (tmp_path / "w.attn").write_text(WINDOW)
    r = _attnc("check", "w.attn", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = _attnc("mask", "w.attn", "--len", "200", "--png", "plan.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "plan.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # A bad file: the binary's located error and exit code come through unchanged.
    (tmp_path / "bad.attn").write_text("kernel k { mask = nope; }\n")
    r = _attnc("check", "bad.attn", cwd=tmp_path)
    assert r.returncode == 1
    assert "bad.attn:1:19: error: unknown name 'nope'" in r.stderr


@pytest.mark.skipif(not os.environ.get("ATTNC_TEST_INSTALLED"), reason="the console script is installed by pip")
def test_the_console_script_is_installed(tmp_path):
    script = Path(sys.executable).parent / "attnc"
    assert script.is_file()
    (tmp_path / "w.attn").write_text(WINDOW)
    r = subprocess.run([str(script), "check", "w.attn"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip()
