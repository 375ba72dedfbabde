# SPDX-License-Identifier: BSD-3-Clause
"""The HTML report renders in a real browser (headless Chromium): every embedded image decodes,
and a screenshot of the page shows plots. Negative controls prove both checks can fail."""

import base64
import io
import os
import re
import shutil
import subprocess
import tempfile

import matplotlib.image as mpimg
import numpy as np
import pytest

CHROMIUM = os.environ.get("NUMAPROBE_CHROMIUM") or shutil.which("chromium")
# Counts the page's images and those the browser could not decode, once the page has loaded.
PROBE = ("<script>window.addEventListener('load', () => { let n = 0, broken = 0;"
         " for (const img of document.images) { n++;"
         " if (!img.complete || img.naturalWidth === 0) broken++; }"
         " document.body.setAttribute('data-images', n + ' ' + broken); });</script>")


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM:
        pytest.skip("chromium not installed (Debian: chromium; scripts/setup-deps --test)")
    return CHROMIUM


def chromium(browser, url, *args):
    with tempfile.TemporaryDirectory() as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync", f"--user-data-dir={profile}", *args, url]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def probed_dom(browser, html_path, probed, probe, *args):
    """The DOM Chromium leaves of @p html_path with the script @p probe added before </body>
    (the copy written to @p probed): probes report what they found as body attributes."""
    probed.write_text(html_path.read_text().replace("</body>", probe + "</body>"))
    return chromium(browser, probed.as_uri(), "--dump-dom", *args)


def images_in_browser(browser, html_path, tmp_path):
    """(images on the page, images the browser failed to decode)."""
    dom = probed_dom(browser, html_path, tmp_path / "probed.html", PROBE)
    m = re.search(r'data-images="(\d+) (\d+)"', dom)
    assert m, "the probe script did not run"
    return int(m.group(1)), int(m.group(2))


HIDE_IMAGES = "<style>img { visibility: hidden; }</style>"


def screenshot(browser, html_path, png_path, hide_images=False):
    if hide_images:
        hidden = html_path.with_name(html_path.stem + "-hidden.html")
        hidden.write_text(html_path.read_text().replace("</body>", HIDE_IMAGES + "</body>"))
        html_path = hidden
    chromium(browser, html_path.as_uri(), f"--screenshot={png_path}", "--window-size=1400,3000")
    return mpimg.imread(str(png_path))[..., :3]


def shows_plots(browser, html_path, png_path, images):
    """The page is not blank, and its images put plots on the screen: the screenshot differs
    from one of the same page (same layout) with every image hidden, over at least 0.2% of its
    pixels per image (a sparse 3-plot page: 0.8% per image; a broken image, which shows only a
    small icon and its alt text: 0.05%)."""
    shown = screenshot(browser, html_path, png_path)
    hidden = screenshot(browser, html_path, str(png_path) + ".hidden.png", hide_images=True)
    non_white = float((shown.min(axis=2) < 0.9).mean())
    drawn = float((np.abs(shown - hidden).max(axis=2) > 0.1).mean())
    return non_white > 0.01 and drawn > 0.002 * max(images, 1), \
        f"non-white {non_white:.4f}, drawn by images {drawn:.4f}"


def _output_dir(tmp_path):
    out = os.environ.get("NUMAPROBE_ANALYSIS_OUT")
    if out:
        os.makedirs(out, exist_ok=True)
        return out
    return str(tmp_path)


def test_report_renders_with_its_plots(browser, synthetic, tmp_path):
    html_path = synthetic["report"] / "report.html"
    html = html_path.read_text()
    uris = re.findall(r'<img [^>]*src="data:image/png;base64,([^"]+)"', html)
    assert len(uris) == 6, "the synthetic fleet supports all six plots"
    for data in uris:  # each embedded image is a PNG Python can decode too
        img = mpimg.imread(io.BytesIO(base64.b64decode(data)), format="png")
        assert img.shape[0] > 100 and img.shape[1] > 100
    assert "src=\"http" not in html and "<link" not in html  # nothing from the network
    assert images_in_browser(browser, html_path, tmp_path) == (6, 0)
    shot = os.path.join(_output_dir(tmp_path), "synthetic-report.png")
    ok, why = shows_plots(browser, html_path, shot, len(uris))
    assert ok, f"{shot}: {why}"


def test_broken_images_and_blank_pages_fail_the_checks(browser, synthetic, tmp_path):
    """Negative controls: the same report with undecodable images, and an empty page."""
    broken = tmp_path / "broken.html"
    html = (synthetic["report"] / "report.html").read_text()
    broken.write_text(re.sub(r"base64,[^\"]{40}", "base64,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                             html))
    total, bad = images_in_browser(browser, broken, tmp_path)
    assert total == 6 and bad == 6
    ok, why = shows_plots(browser, broken, tmp_path / "broken.png", 6)
    assert not ok, why
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    ok, why = shows_plots(browser, blank, tmp_path / "blank.png", 0)
    assert not ok, why
    assert images_in_browser(browser, blank, tmp_path) == (0, 0)


def test_three_host_fleet_report_renders(browser, tmp_path):
    fleet3 = os.environ.get("NUMAPROBE_FLEET3", "")
    if not os.path.exists(fleet3):
        pytest.skip("the 3-host fake fleet file is absent (analysis.fleet3 skipped or not run)")
    from conftest import run_report
    proc = run_report(fleet3, "-o", tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    drawn = proc.stdout.count(": written")
    html_path = tmp_path / "r" / "report.html"
    assert images_in_browser(browser, html_path, tmp_path) == (drawn, 0)
    shot = os.path.join(_output_dir(tmp_path), "fleet3-report.png")
    ok, why = shows_plots(browser, html_path, shot, drawn)
    assert ok, f"{shot}: {why}"
