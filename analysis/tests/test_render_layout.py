# SPDX-License-Identifier: BSD-3-Clause
"""In headless Chromium, the report opens with the answer: the first table on screen is the
node-type comparison, above the outliers and above every plot. Skipped without chromium, as
test_render.py is."""

import re

import test_render
from test_render import probed_dom

browser = test_render.browser  # the fixture: chromium, or a skip saying it is not installed

# Once laid out: the ids of the tables in screen order (top to bottom), and whether the
# comparison table is above the first image.
PROBE = ("<script>window.addEventListener('load', () => {"
         " const t = [...document.querySelectorAll('table')]"
         "   .map(e => [e.getBoundingClientRect().top, e.id]).sort((a, b) => a[0] - b[0]);"
         " const img = document.images.length ? document.images[0].getBoundingClientRect().top"
         "   : Infinity;"
         " document.body.setAttribute('data-order', t.map(x => x[1]).join(','));"
         " const c = document.getElementById('table-comparison');"
         " document.body.setAttribute('data-first-above-images', String(c !== null &&"
         "   c.getBoundingClientRect().top < img)); });</script>")


def _layout(browser, html_path, tmp_path):
    dom = probed_dom(browser, html_path, tmp_path / "layout.html", PROBE,
                     "--window-size=1400,3000")
    order = re.search(r'data-order="([^"]*)"', dom)
    above = re.search(r'data-first-above-images="(\w+)"', dom)
    assert order and above, "the probe script did not run"
    return order.group(1).split(","), above.group(1) == "true"


def test_comparison_table_comes_first_on_screen(browser, synthetic, tmp_path):
    order, above = _layout(browser, synthetic["report"] / "report.html", tmp_path)
    assert order[0] == "table-comparison", order
    assert order.index("table-outliers") < order.index("table-node_types")
    assert above, "the comparison table is below a plot"


def test_a_page_without_it_fails_the_check(browser, synthetic, tmp_path):
    """Negative control: the comparison table moved below the plots is caught."""
    html = (synthetic["report"] / "report.html").read_text()
    moved = re.sub(r"(<h2 id=comparison>.*?</table>)(.*?)(</body>)", r"\2\1\3", html,
                   flags=re.S)
    assert moved != html
    path = tmp_path / "moved.html"
    path.write_text(moved)
    order, above = _layout(browser, path, tmp_path)
    assert order[0] != "table-comparison" and not above
