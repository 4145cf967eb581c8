"""The numba cache is keyed by every numba source file of the project, not only the defining one."""

import shutil
from pathlib import Path

from mpcmc_engine import jit as project_jit
from mpcmc_engine.bitboard.makemove import make_move
from mpcmc_engine.bitboard.movegen import generate_moves

ROOT = Path(project_jit.__file__).resolve().parent.parent


def test_digest_changes_when_any_numba_package_file_changes(tmp_path):
    for package in project_jit.NUMBA_PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    original = project_jit.source_digest(tmp_path)
    assert original == project_jit.SOURCE_DIGEST
    for package in project_jit.NUMBA_PACKAGES:
        extra = tmp_path / package / "zz_added.py"
        extra.write_text("X = 1\n")
        assert project_jit.source_digest(tmp_path) != original, package
        extra.unlink()
    constants = tmp_path / "bitboard" / "constants.py"
    constants.write_text(constants.read_text() + "\n# a changed comment\n")
    assert project_jit.source_digest(tmp_path) != original


def test_project_functions_are_cached_under_the_digest_directory():
    for function in (make_move, generate_moves):
        locator = function._cache._impl.locator
        assert isinstance(locator, project_jit.ProjectCacheLocator)
        assert locator.get_cache_path().startswith(str(project_jit.cache_root()))
        assert project_jit.SOURCE_DIGEST in locator.get_cache_path()
