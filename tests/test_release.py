"""The release: one version in pyproject.toml, read back from the installed metadata, named in the changelog."""

from __future__ import annotations

import fnmatch
import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import labeler
from labeler import DIST_NAME, UNKNOWN_VERSION, source_version
from labeler.workbench.demo import sample_corpus_dir

ROOT = Path(labeler.__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the package itself reads the version without it


def project() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]


def installed() -> str:
    try:
        return importlib.metadata.version(DIST_NAME)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"{DIST_NAME} is not installed here (pip install -e .): its metadata cannot be read")


def test_the_version_is_the_installed_metadata():
    assert labeler.__version__ == installed()


def test_the_installed_metadata_is_this_checkout_s_pyproject():
    """A version bump needs a reinstall: until then the metadata (and --version) would say the old one."""
    assert installed() == project()["version"]


def test_labeler_version_prints_it():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "labeler", "--version"], env=env, capture_output=True, text=True, timeout=60
    )
    assert (out.returncode, out.stdout, out.stderr) == (0, f"labeler, version {labeler.__version__}\n", "")


def test_a_source_tree_without_metadata_reads_its_pyproject(tmp_path):
    assert source_version(PYPROJECT) == project()["version"]
    assert source_version(tmp_path / "pyproject.toml") == UNKNOWN_VERSION
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert source_version(tmp_path / "pyproject.toml") == UNKNOWN_VERSION


def test_other_attributes_are_still_missing():
    with pytest.raises(AttributeError):
        labeler.__no_such_attribute__  # noqa: B018


def test_the_distribution_name_is_the_one_pyproject_declares():
    declared = project()
    assert declared["name"] == DIST_NAME
    extras = [req for group in declared["optional-dependencies"].values() for req in group]
    own = [req for req in extras if re.match(r"[\w.-]+\[", req)]
    assert own and all(req.startswith(f"{DIST_NAME}[") for req in own)


def test_the_changelog_has_a_section_for_this_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    version = re.escape(project()["version"])
    assert re.search(rf"^## \[{version}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.MULTILINE)
    section = changelog.split(f"## [{project()['version']}]", 1)[1].split("\n## [", 1)[0]
    assert "### Deprecated" in section


def test_the_demo_s_sample_corpus_ships_in_the_package():
    """package-data carries every file of the folder the demo reads, so an installed wheel runs it too."""
    package = Path(labeler.__file__).resolve().parent
    folder = sample_corpus_dir()
    assert folder.parent == package
    patterns = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["labeler"]
    files = [path.relative_to(package).as_posix() for path in folder.iterdir()]
    assert "sample_corpus/corpus.jsonl" in files
    assert [name for name in files if not any(fnmatch.fnmatch(name, p) for p in patterns)] == []
