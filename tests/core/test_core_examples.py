"""The examples in the docstrings of the core's shared API run as written (a reader copies
them)."""

from __future__ import annotations

import doctest

import pytest

import gmkit.core.dispatch
import gmkit.core.envelope
import gmkit.core.flow
import gmkit.core.tables
import gmkit.core.views
import gmkit.core.words


@pytest.mark.parametrize("module", [gmkit.core.tables, gmkit.core.envelope, gmkit.core.flow,
                                    gmkit.core.dispatch, gmkit.core.views,
                                    gmkit.core.words],
                         ids=lambda m: m.__name__)
def test_docstring_examples_give_what_they_show(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
