"""``bench/run.py --against FILE``: a run compared with an earlier one names each figure that
got more than 20% worse, so a change that slows gmkit is seen before it lands."""

from __future__ import annotations

import json

from bench.run import read_results, worse_than


def test_a_figure_more_than_a_fifth_worse_is_named_with_both_values():
    """Times and ratios are worse larger; a figure whose target is a floor (">= ...") is
    worse smaller; within 20% is noise; skipped figures and figures not in the earlier run
    are left out."""
    before = [{"name": "verify_s", "value": 1.0, "unit": "s", "target": "< 5"},
              {"name": "ratio", "value": 1.0, "unit": "x", "target": "<= 1.5"},
              {"name": "throughput", "value": 100, "unit": "/s", "target": ">= 50"},
              {"name": "steady", "value": 2.0, "unit": "s", "target": None},
              {"name": "skipped", "value": None, "unit": "s", "target": "< 1"}]
    after = [{"name": "verify_s", "value": 1.3, "unit": "s", "target": "< 5"},
             {"name": "ratio", "value": 1.15, "unit": "x", "target": "<= 1.5"},
             {"name": "throughput", "value": 70, "unit": "/s", "target": ">= 50"},
             {"name": "steady", "value": 1.0, "unit": "s", "target": None},
             {"name": "skipped", "value": 3.0, "unit": "s", "target": "< 1"},
             {"name": "new", "value": 9.0, "unit": "s", "target": None}]
    worse = worse_than(before, after)
    assert len(worse) == 2, worse
    assert worse[0].startswith("verify_s: 1 -> 1.3 s (+30%")
    assert worse[1].startswith("throughput: 100 -> 70 /s (-30%")


def test_an_earlier_run_is_read_from_its_json_lines(tmp_path):
    """The file is what ``--json`` printed: one object a line; other lines are skipped."""
    path = tmp_path / "before.json"
    path.write_text("a note\n" + json.dumps({"name": "x", "value": 1, "unit": "s",
                                             "target": None}) + "\n", "utf-8")
    assert [r["name"] for r in read_results(path)] == ["x"]
