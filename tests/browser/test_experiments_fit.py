"""The Experiments page at 1400x900 and 1920x1080 with MMR-Life's long subtask names: every
value whole (the subtask was cut to "Animal Relation In…", the clue source to "the model's
own clu" under its arrow), the Preview / Start bar over no field of the form (stuck to the
bottom of the screen, it covered the Items fields), and the runs list showing more than the
5 rows of its fixed 300 px. Real Chromium, a real server, MMR-Life items imported by the
real importer."""
import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from store import Store
from tests.browser.fit_checks import covered_fields, cut_text
from tests.live_server import ROOT, LiveServer, build_ui_db, open_ui_store
from tests.scoring_helpers import make_run

# as in MMR-Life's release: the image folder names the reasoning type and the task, the
# longest of its 21 names Character Interaction Attribution (its images are not needed here)
TASKS = {"CIA": "Character Interaction Attribution", "ARI": "Animal Relation Inference",
         "HAA": "Human Activity Attribution"}
MMR_LIFE = [{"id": f"{code}_1", "img_path": f"images/abductive/{task}/1", "golden_answer": "A",
             "question": "Question: Which one? \nOptions: A. one B. two C. three D. four "
                         "E. five "} for code, task in TASKS.items()]
SUBTASK = TASKS["CIA"]
RUNS = 14


@pytest.fixture
def mmr_server(tmp_path):
    db = tmp_path / "ui.db"
    build_ui_db(db)
    source = tmp_path / "mmr.json"
    source.write_text(json.dumps(MMR_LIFE))
    subprocess.run([sys.executable, str(ROOT / "app.py"), "import", "--db", str(db),
                    "--format", "mmr-life", str(source)], check=True, capture_output=True)
    with Store.open(db) as store:
        for n in range(RUNS):
            make_run(store, f"20261204-0101{n:02d}-ab{n:02d}", {"ui/alpha": "Answer: A"})
    server = LiveServer(db, "--no-auth")
    yield server
    server.stop()


def pick(page, elem_id: str, option: str) -> None:
    page.locator(f"#{elem_id} input").click()
    page.locator("[data-testid=dropdown-option]", has_text=option).first.click()
    expect(page.locator(f"#{elem_id} input")).to_have_value(option, timeout=10000)


def rows_in_view(page, elem_id: str) -> int:
    """The rows of a Dataframe shown whole in its box (not behind its own scroll)."""
    return page.evaluate("""(id) => {
      const box = document.querySelector('#' + id + ' .virtual-table-viewport')
        .getBoundingClientRect();
      return [...document.querySelectorAll('#' + id + ' .virtual-row')].filter(r => {
        const b = r.getBoundingClientRect();
        return b.height > 0 && b.top >= box.top - 1 && b.bottom <= box.bottom + 1; }).length;
    }""", elem_id)


@pytest.mark.parametrize("width,height,rows", [(1400, 900, 7), (1920, 1080, 12)])
def test_the_run_form_fits_and_its_start_bar_covers_no_field(mmr_server, page, tmp_path,
                                                              width, height, rows):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(mmr_server.url + "/experiments")
    expect(page.locator("#runs-list")).to_contain_text("20261204-010100-ab00", timeout=30000)
    pick(page, "run-clues", "the model's own clues (first pass)")
    pick(page, "run-dataset", "mmr-life")
    pick(page, "run-subtask", SUBTASK)
    page.mouse.move(0, 0)
    assert cut_text(page) == []
    page.screenshot(path=str(tmp_path / f"experiments-{width}.png"))      # to look at
    # before: the Items fields (and the ids box) were under the bar stuck to the bottom
    assert covered_fields(page, "#run-actions", "#run-builder") == []
    start = page.locator("#run-start").bounding_box()
    assert start["y"] >= 0 and start["y"] + start["height"] <= height   # Start still in view
    assert rows_in_view(page, "runs-list") >= rows                       # before: 5 and 7


CUT_CELLS = """(id) => [...document.querySelectorAll('#' + id + ' span.text')]
  .filter(t => t.offsetParent && t.scrollWidth > t.clientWidth + 1)
  .map(t => t.textContent.trim())"""


def test_the_endpoints_list_cuts_no_cell_at_1400(tmp_path, page):
    """Its 'key set' column (8% of the run form's column) cut "no key needed" to "no key
    neede"; a long model id or variable name broke into a column of three-letter lines.
    Typical values are whole, each row one line high; a long one is cut with an ellipsis,
    whole in its tooltip."""
    db = tmp_path / "ui.db"
    long_model = "Qwen/Qwen2.5-VL-72B-Instruct-AWQ-4bit-gptq-calibrated"
    with open_ui_store(db) as store:
        store.add_endpoint("local", base_url="http://127.0.0.1:8797/v1", model="fake-vlm")
        store.add_endpoint("openai", base_url="https://api.openai.com/v1",
                           model="gpt-4o-2024-08-06", api_key_env="NO_SUCH_KEY_1",
                           concurrency=16, max_image_pixels=4000000)
        store.add_endpoint("vllm", base_url="http://127.0.0.1:8000/v1", model=long_model)
    server = LiveServer(db, "--no-auth")
    try:
        page.set_viewport_size({"width": 1400, "height": 900})
        page.goto(server.url + "/experiments")
        page.locator("#endpoints-panel").get_by_text("Endpoints (OpenAI").click()
        listed = page.locator("#endpoint-list")
        expect(listed).to_contain_text("no key needed", timeout=30000)
        expect(listed).to_contain_text("NOT SET")
        page.mouse.move(0, 0)
        assert page.evaluate(CUT_CELLS, "endpoint-list") == [long_model]
        rows = listed.locator(".virtual-row")
        heights = [rows.nth(i).bounding_box()["height"] for i in range(rows.count())]
        assert len(heights) == 3 and max(heights) < 1.5 * min(heights), heights
        cut = listed.locator(".body-cell span.text", has_text="Qwen/")
        cut.hover()
        expect(cut).to_have_attribute("title", long_model)
        page.screenshot(path=str(tmp_path / "endpoints-1400.png"))      # to look at
    finally:
        server.stop()
