"""The Jupyter turn panel (``gmkit.desk.panel``) on every bundled sample, in JupyterLab driven by
headless Chromium: the panel's tab labels show whole ("Commit and publish", not "Commit and
pu...").

One JupyterLab server for the module; a notebook per sample. Skipped, with the reason, where
Debian's chromium and chromium-driver, or JupyterLab, are not installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bench.notebook_clicks import _free_port, browser, missing_browser

ROOT = Path(__file__).resolve().parent.parent
CELL = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell .cm-content"
SAMPLES = sorted(p.name.removeprefix("sample-") for p in (ROOT / "data").glob("sample-*"))


def _missing() -> str | None:
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        return "JupyterLab is not installed"
    return missing_browser()


pytestmark = [pytest.mark.skipif(_missing() is not None, reason=str(_missing())),
              # one JupyterLab for the module: kept on one worker under ``--dist loadgroup``
              pytest.mark.xdist_group("turn-panel-browser")]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving a folder with a notebook per sample, each showing the panel on a
    copy of the sample; yields (port, folder, browser)."""
    root = tmp_path_factory.mktemp("lab")
    for sample in SAMPLES:
        shutil.copytree(ROOT / "data" / f"sample-{sample}", root / f"sample-{sample}")
        cell = ["from gmkit.desk import Desk\n", "from gmkit.desk.panel import DeskPanel\n",
                f"panel = DeskPanel(Desk.open('sample-{sample}'))\n", "panel.widget"]
        (root / f"{sample}.ipynb").write_text(json.dumps({
            "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None,
                       "outputs": [], "source": cell}],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}))
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JUPYTER_CONFIG_DIR": str(root / ".cfg"),
           "JUPYTER_RUNTIME_DIR": str(root / ".rt")}
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name("jupyter")), "lab", "--no-browser",
         f"--port={port}", "--ip=127.0.0.1", "--allow-root", "--IdentityProvider.token=",
         "--ServerApp.password=", f"--ServerApp.root_dir={root}", "--LabApp.news_url=",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = browser()
    try:
        end = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/lab", timeout=5).close()
                break
            except OSError:
                assert time.monotonic() < end and server.poll() is None, "JupyterLab did not start"
                time.sleep(0.5)
        yield port, root, driver
    finally:
        driver.quit()
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def _wait(driver, script: str, timeout: float = 90):
    end = time.monotonic() + timeout
    while True:
        got = driver.execute_script(script)
        if got:
            return got
        assert time.monotonic() < end, f"timed out: {script}"
        time.sleep(0.3)


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_panel_tab_labels_show_whole(lab, sample):
    """Each tab of the panel is as wide as its label: no label is cut."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    port, _, driver = lab
    # a workspace of its own, reset: only this sample's notebook is open
    driver.get(f"http://127.0.0.1:{port}/lab/workspaces/{sample}/tree/{sample}.ipynb?reset")
    _wait(driver, f"return document.querySelector({CELL!r});")
    _wait(driver, "return /Idle/.test(document.body.innerText);")  # the kernel is up
    from selenium.common.exceptions import WebDriverException

    end = time.monotonic() + 90
    while True:  # the cell's editor takes clicks once JupyterLab has laid the page out
        try:
            driver.find_element("css selector", CELL).click()
            break
        except WebDriverException:
            assert time.monotonic() < end, "the notebook's cell never took a click"
            ActionChains(driver).send_keys(Keys.ESCAPE).perform()  # a dialog, if any
            time.sleep(0.5)
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.ENTER).key_up(Keys.SHIFT).perform()
    tabs = _wait(driver, """
        return Array.from(document.querySelectorAll('.gmkit-panel .lm-TabBar-tab')).map(t => {
            const l = t.querySelector('.lm-TabBar-tabLabel') || t;
            return {text: l.innerText, label: l.scrollWidth, shown: l.clientWidth}; });""")
    assert [t["text"] for t in tabs] == ["The game", "Orders", "Odds and commitment",
                                         "Resolution", "Commit and publish"], tabs
    assert all(t["label"] <= t["shown"] for t in tabs), tabs
