# SPDX-License-Identifier: BSD-3-Clause
"""`compare --references NAME`: a bare name is looked up in the site's directory, as `-c NAME`
is for configs (numaprobe_analysis/sitefiles.py). SITE_DIR is pointed at a temporary directory,
so the machine's /etc is never read or written; tests/install/site-files.sh runs the installed
command against the real /etc/numaprobe in a private mount namespace."""

import argparse

import pytest

from numaprobe_analysis import cli_report, sitefiles


@pytest.fixture
def site(tmp_path, monkeypatch):
    d = tmp_path / "etc-numaprobe"
    d.mkdir()
    monkeypatch.setattr(sitefiles, "SITE_DIR", str(d))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return d


def test_a_name_is_found_in_the_site_directory(site):
    (site / "fleet.json").write_text("{}")
    assert sitefiles.references("fleet") == str(site / "fleet.json")
    (site / "fleet.yaml").write_text("{}")
    assert sitefiles.references("fleet") == str(site / "fleet.yaml")  # .yaml before .json


def test_the_compare_option_takes_it(site):
    (site / "fleet.yml").write_text("{}")
    args = cli_report.parser_for("compare").parse_args(["--references", "fleet", "new.h5"])
    assert args.references == str(site / "fleet.yml")


def test_a_file_here_and_a_path_stay_as_given(site):
    (site / "fleet.yaml").write_text("{}")
    with open("fleet", "w") as f:
        f.write("{}")
    assert sitefiles.references("fleet") == "fleet"
    for path in ("./fleet", "refs/fleet", "fleet.yaml", "other.json", "/x/fleet"):
        assert sitefiles.references(path) == path


def test_a_name_found_nowhere_says_where_it_looked(site):
    (site / "other").mkdir()  # a directory of that name is no references file
    with pytest.raises(argparse.ArgumentTypeError, match=f"no other.yaml, other.yml or "
                       f"other.json in the site's directory {site}"):
        sitefiles.references("other")
