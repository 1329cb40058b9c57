"""A range of percentages is written as the reader writes a percentage: "70–100%" in
English, "70–100 %" in Spanish (a no-break space), as every single percentage is."""

import pytest
from django.utils import translation

from teaching.selectors.learner_table import LearnerRow, totals_histogram
from teaching.templatetags.memory_charts import memory_legend


@pytest.mark.parametrize("language, sign", [("en", "%"), ("es", "\u00a0%")])
def test_the_memory_legend_writes_its_ranges_in_the_readers_way(language, sign):
    with translation.override(language):
        labels = [band["label"] for band in memory_legend()]

    assert labels[0] == f"90–100{sign}"
    assert labels[-1] == f"0–50{sign}"


@pytest.mark.parametrize("language, sign", [("en", "%"), ("es", "\u00a0%")])
def test_the_results_histogram_writes_its_ranges_in_the_readers_way(language, sign):
    row = LearnerRow(1, "ana", [4])
    row.correct = 3

    with translation.override(language):
        histogram = totals_histogram({1: row}, questions=4)

    assert histogram[0] == (f"0–10{sign}", 0)
    assert histogram[7] == (f"70–80{sign}", 1)
