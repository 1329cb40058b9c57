"""Forced colours (Windows' high contrast themes): the browser repaints text and
backgrounds in the theme's few colours but leaves an SVG's fills as written. The
activity chart on My progress drew its labels in a dark grey that vanished on a dark
theme's black, and its legend's swatches, painted as backgrounds, were wiped to the
page's colour: "right · not right" beside nothing."""

import pytest

from .helpers import create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COLOURS = """() => {
  const style = (selector) => getComputedStyle(document.querySelector(selector));
  return {
    page: style("body").backgroundColor,
    text: style("body").color,
    tick: style(".activity-chart .tick").fill,
    axis: style(".activity-chart .axis").stroke,
    keyRight: style(".activity figcaption .key-right").backgroundColor,
    keyTotal: style(".activity figcaption .key-total").backgroundColor,
    barTotal: style(".activity-chart .bar-total").fill,
  };
}"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_activity_chart_keeps_its_labels_and_legend_in_forced_colours(page, site, scheme):
    create_account(page, site, f"contrast-{scheme}")
    page.goto(site + "/phase/10/")
    page.locator("#q-10-01 input[name=choice]").first.check()
    page.locator("#q-10-01 button[type=submit]").click()
    page.locator("#q-10-01 .feedback").wait_for()
    page.goto(site + "/progress/")
    page.emulate_media(forced_colors="active", color_scheme=scheme)

    colours = page.evaluate(COLOURS)

    assert colours["tick"] == colours["text"], colours  # the theme's text colour
    assert colours["axis"] == colours["text"], colours
    assert colours["keyRight"] != colours["page"], colours
    assert colours["keyTotal"] != colours["page"], colours
    assert colours["keyRight"] != colours["keyTotal"], colours
    assert colours["keyTotal"] == colours["barTotal"], colours  # the legend is the chart's
