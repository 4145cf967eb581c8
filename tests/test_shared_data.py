"""Where the shared data is looked for: MPCMC_SHARED_DATA, beside the checkout, or from the working directory (the
case of a `pip install .` run from its checkout)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import mpcmc_engine.shared_data

MODULE = Path(mpcmc_engine.shared_data.__file__)


def _resolved(module_root: Path, cwd: Path, environment_value=None) -> str:
    """SHARED_DATA as a copy of the module under `module_root`/site/mpcmc_engine sees it when run from `cwd`."""
    package = module_root / "site" / "mpcmc_engine"
    package.mkdir(parents=True, exist_ok=True)
    shutil.copy(MODULE, package / "shared_data.py")
    environment = {key: value for key, value in os.environ.items() if key != "MPCMC_SHARED_DATA"}
    if environment_value:
        environment["MPCMC_SHARED_DATA"] = environment_value
    code = f"import runpy; print(runpy.run_path({str(package / 'shared_data.py')!r})['SHARED_DATA'])"
    reply = subprocess.run([sys.executable, "-c", code], cwd=cwd,
                           env=environment, capture_output=True, text=True, check=True)
    return reply.stdout.strip()


def test_installed_copy_finds_the_data_from_its_checkout(tmp_path):
    checkout, data = tmp_path / "work" / "repo", tmp_path / "work" / "shared" / "data"
    checkout.mkdir(parents=True)
    data.mkdir(parents=True)
    installed = tmp_path / "python"
    assert _resolved(installed, checkout) == str(data.resolve())


def test_missing_data_names_the_place_beside_the_package(tmp_path):
    installed = tmp_path / "python"
    assert _resolved(installed, tmp_path) == str((installed / "shared" / "data").resolve())


def test_environment_variable_wins(tmp_path):
    chosen = tmp_path / "elsewhere"
    assert _resolved(tmp_path / "python", tmp_path, str(chosen)) == str(chosen)
