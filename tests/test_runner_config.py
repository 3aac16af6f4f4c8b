"""Run configuration, prompts, messages and cache keys: the pure parts of the runner, plus
pixel-exact masking and cropping of the images a request actually carries."""
import base64
import io

import numpy as np
import pytest
from PIL import Image

from runner import costs
from runner.cache import cache_key
from runner.config import (ConfigError, Execution, RunConfig, config_id, request_seed,
                           resolved_config)
from runner.messages import ImageEncoder, ImageOptions, build_messages, image_refs, materialise
from runner.planning import plan_run
from runner.projection import basis_text
from domain.templates import TemplateError, render
from runner.prompts import PromptSet, default_names, default_text, ensure_versions, template_names

ENDPOINT = {"name": "e", "base_url": "http://h/v1", "model": "m", "api_key_env": None,
            "concurrency": 4, "params": {"temperature": 0.0, "max_tokens": 512},
            "max_image_pixels": None}


def defaults() -> PromptSet:
    return PromptSet({name: default_text(name) for name in default_names()})


# -- config -------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"setting": "fancy"}, "setting"), ({"clues": "gemini"}, "clue source"),
    ({"image_mode": "zoom"}, "image mode"), ({"samples": 0}, "samples"),
    ({"top_p": 0}, "top_p"), ({"preset": "x"}, "preset"),
    ({"ids": ["a"], "filters": {"dataset": "d"}}, "either"),
    ({"filters": {"colour": "red"}}, "unknown item filters")])
def test_invalid_configs_say_what_to_change(change, message):
    with pytest.raises(ConfigError, match=message):
        RunConfig(endpoint="e", **change).validate()


def test_sampling_precedence_endpoint_then_preset_then_explicit():
    config = RunConfig(endpoint="e", preset="mmr-life", top_p=0.9)
    assert config.sampling({"temperature": 0, "max_tokens": 64, "top_k": 5}) == {
        "temperature": 0.5, "top_p": 0.9, "seed": 17, "max_tokens": 64, "top_k": 5}


def test_seeds_are_base_plus_repeat_and_distinct_per_sample():
    assert [request_seed(17, r, 0, 3) for r in range(3)] == [17, 18, 19]
    seeds = {request_seed(17, r, s, 3) for r in range(3) for s in range(4)}
    assert len(seeds) == 12
    assert request_seed(None, 2, 1, 3) is None


def test_config_id_covers_what_changes_replies_and_nothing_else():
    def cid(config=None, endpoint=ENDPOINT, templates=None, ids=("a", "b")):
        config = config or RunConfig(endpoint="e", setting="cot")
        return config_id(resolved_config(config, endpoint, templates or {"user": 1}, list(ids)))

    base = cid()
    assert base == cid() and len(base) == 64
    assert cid(endpoint={**ENDPOINT, "name": "renamed", "concurrency": 64}) == base
    assert cid(RunConfig(endpoint="e", setting="cot", filters={"dataset": "x"})) == base
    for other in (cid(templates={"user": 2}), cid(endpoint={**ENDPOINT, "model": "m2"}),
                  cid(endpoint={**ENDPOINT, "base_url": "http://other/v1"}),
                  cid(ids=("a", "c")), cid(RunConfig(endpoint="e", setting="direct")),
                  cid(RunConfig(endpoint="e", setting="cot", seed=1)),
                  cid(RunConfig(endpoint="e", setting="cot", image_mode="clue_masked")),
                  cid(RunConfig(endpoint="e", setting="cot", samples=2))):
        assert other != base
    # the preset by name or by hand is the same experiment
    assert cid(RunConfig(endpoint="e", preset="mmr-life")) == cid(
        RunConfig(endpoint="e", temperature=0.5, top_p=0.5, seed=17))


def test_execution_is_validated():
    with pytest.raises(ConfigError, match="budget"):
        Execution(budget=0).validate()
    assert Execution.from_dict({"budget": 2, "unknown": 1}).budget == 2


# -- prompts ------------------------------------------------------------------------------

def test_render_fills_placeholders_and_keeps_json_and_dollars():
    text = render('{"answer": "$country,admin1$"} {{x}}\n\n\n\n{{empty}}\nend', {"x": "X",
                                                                                "empty": ""})
    assert text == '{"answer": "$country,admin1$"} X\n\nend'
    with pytest.raises(TemplateError, match="missing"):
        render("{{missing}}", {})


def test_template_names_follow_setting_clues_and_answer_types():
    assert template_names("direct", "none", {"yes_no"}) == ["answer_yes_no", "system_direct",
                                                            "user"]
    names = template_names("cot", "self", {"multiple_choice"}, "structured")
    assert {"system_structured", "system_clues", "clues_block"} <= set(names)


def test_defaults_are_stored_once_and_edits_are_new_versions(store):
    assert ensure_versions(store, ["user", "system_cot"]) == {"user": 1, "system_cot": 1}
    store.save_prompt_template("user", "Q: {{question}} {{options}} {{clues}} {{images}}")
    assert ensure_versions(store, ["user"]) == {"user": 2}
    assert PromptSet.load(store, {"user": 1}).texts["user"] == default_text("user")


@pytest.mark.parametrize("answer_type, expected", [
    ("multiple_choice", "letter"), ("yes_no", "Yes or No"), ("location", "$country,admin1$"),
    ("numeric", "number"), ("open", "short phrase")])
def test_each_answer_type_has_its_format_in_every_setting(answer_type, expected):
    prompts = defaults()
    for setting in ("direct", "cot", "clue_guided", "structured"):
        assert expected in prompts.system(setting, answer_type, with_clues=False)
    assert '"clues"' in prompts.system("structured", answer_type, False)
    assert "clues" in prompts.system("cot", answer_type, with_clues=True).lower()


# -- messages -----------------------------------------------------------------------------

def texts(messages) -> str:
    user = messages[1]["content"]
    return "\n".join(p["text"] for p in user if isinstance(p, dict))


def test_single_image_item_text_options_and_injected_clues(make_item):
    item = make_item()
    messages = build_messages(item, "cot", defaults(), ImageOptions(),
                              clues=["the ears are pointed"])
    user = messages[1]["content"]
    assert messages[0]["role"] == "system" and "step by step" in messages[0]["content"]
    assert [type(p).__name__ for p in user] == ["ImageRef", "dict"]  # image first, no label
    assert "Options:\nA. a cat\nB. a dog" in texts(messages)
    assert "Visual clues:\n1. the ears are pointed" in texts(messages)


def test_multi_image_items_label_images_and_image_options(make_item, add_png):
    item = make_item(n_images=2)
    item["options"] = [{"label": "A", "text": "", "image": add_png()},
                       {"label": "B", "text": "", "image": add_png()}]
    messages = build_messages(item, "direct", defaults(), ImageOptions())
    text = texts(messages)
    for label in ("Image 1:", "Image 2:", "Image 3 (option A):", "Image 4 (option B):",
                  "A. Image 3", "B. Image 4", "numbered Image 1 to Image 4"):
        assert label in text
    assert len(image_refs(messages)) == 4
    text_only = build_messages(item, "direct", defaults(), ImageOptions(mode="text_only"))
    assert image_refs(text_only) == [] and "A. (an image, not shown)" in texts(text_only)


def test_masked_and_cropped_refs_come_from_the_gt_boxes(make_item):
    item = make_item(n_clues=2)
    masked = image_refs(build_messages(item, "cot", defaults(), ImageOptions("clue_masked")))
    assert [(r.op, r.boxes) for r in masked] == [("mask", ((10, 20, 30, 40),) * 2)]
    crops = image_refs(build_messages(item, "cot", defaults(), ImageOptions("clue_crops")))
    assert [r.op for r in crops] == ["full", "crop", "crop"]
    assert "close-up of a region of Image 1" in texts(
        build_messages(item, "cot", defaults(), ImageOptions("clue_crops")))


def test_cache_key_needs_no_image_file_and_sees_every_difference(store, make_item):
    item = make_item()
    prompts = defaults()

    def key(options=ImageOptions(), params=None, sample=0, repeat=0, clues=None):
        messages = build_messages(item, "cot", prompts, options, clues)
        return cache_key("http://h/v1", "m", messages, params or {"temperature": 0}, sample,
                         repeat)

    base = key()
    store.image_path(item["images"][0]).unlink()  # keys are computed from hashes only
    assert key() == base
    variants = [key(ImageOptions("clue_masked")), key(ImageOptions("clue_masked",
                                                                   mask_style="blur")),
                key(ImageOptions(max_pixels=5000)), key(ImageOptions(format="png")),
                key(params={"temperature": 0.5}), key(sample=1), key(repeat=1),
                key(clues=["x"])]
    assert len({base, *variants}) == len(variants) + 1


def decode(url: str) -> np.ndarray:
    header, data = url.split(",", 1)
    assert header == "data:image/png;base64"
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"))


@pytest.fixture
def noisy_item(store, make_item):
    """An item whose only image is random noise, with clue boxes on it."""
    pixels = np.random.default_rng(7).integers(0, 256, (90, 120, 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG")
    sha = store.add_image(buffer.getvalue(), "noise.png").sha256
    item = make_item()
    item["images"] = [sha]
    item["clues"] = [{"text": "c1", "reasoning": "", "boxes": [
        {"image": sha, "x0": 10, "y0": 5, "x1": 40, "y1": 25},
        {"image": sha, "x0": 100, "y0": 60, "x1": 120, "y1": 90}]}]
    return item, pixels


def sent_images(store, item, options) -> list[np.ndarray]:
    messages = materialise(build_messages(item, "cot", defaults(), options),
                           ImageEncoder(store))
    return [decode(p["image_url"]["url"]) for p in messages[1]["content"]
            if p["type"] == "image_url"]


def test_masking_is_pixel_exact(store, noisy_item):
    item, original = noisy_item
    [black] = sent_images(store, item, ImageOptions("clue_masked", format="png"))
    expected = original.copy()
    expected[5:25, 10:40] = 0
    expected[60:90, 100:120] = 0
    assert np.array_equal(black, expected)
    [blurred] = sent_images(store, item, ImageOptions("clue_masked", "blur", format="png"))
    outside = np.ones(original.shape[:2], bool)
    outside[5:25, 10:40] = outside[60:90, 100:120] = False
    assert np.array_equal(blurred[outside], original[outside])
    assert not np.array_equal(blurred[5:25, 10:40], original[5:25, 10:40])


def test_crops_are_pixel_exact_and_follow_the_full_image(store, noisy_item):
    item, original = noisy_item
    full, crop1, crop2 = sent_images(store, item, ImageOptions("clue_crops", format="png"))
    assert np.array_equal(full, original)
    assert np.array_equal(crop1, original[5:25, 10:40])
    assert np.array_equal(crop2, original[60:90, 100:120])


def test_downscaling_applies_after_masking(store, noisy_item):
    item, _ = noisy_item
    [small] = sent_images(store, item, ImageOptions("clue_masked", max_pixels=2700,
                                                    format="png"))
    assert small.shape[0] * small.shape[1] <= 2700 and small.shape[1] == 60


# -- costs and planning -------------------------------------------------------------------

def test_costs_and_projection():
    price = {"input_per_m": 2.0, "output_per_m": 8.0}
    assert costs.cost(price, 1_000_000, 500_000) == 6.0
    assert costs.cost(None, 10, 10) is None
    assert costs.image_tokens(1024, 1024) == 765  # OpenAI's documented example
    p = costs.projection(price, requests=10, cached=4, prompt_tokens=6000,
                         completion_tokens=6 * 8, completion_max=6 * 1024)
    assert p["to_send"] == 6 and p["prompt_tokens"] == 6000 and p["cost"] < p["cost_max"]


def test_calibration_per_text_and_image_token_and_per_setting():
    """Text-only requests reported 0.9 of their text estimate; requests with images 300
    beyond their (scaled) text over 1,500 estimated image tokens: images x0.2. Completions:
    cot with clues none measured, cot with gt falls back to any clue source, clue_guided to
    the comparable CoT's measured length, direct (comparable to none) and a fresh endpoint
    to none (the bound)."""
    c = costs.calibrate(
        prompts=[{"images": False, "n": 10, "prompt": 900, "text": 1000, "image": 0},
                 {"images": True, "n": 5, "prompt": 750, "text": 500, "image": 1500}],
        completions=[{"setting": "cot", "clues": "none", "n": 10, "completion": 35},
                     {"setting": "cot", "clues": "run:abc", "n": 10, "completion": 105}])
    assert (c.text_scale, c.image_scale) == (0.9, pytest.approx(0.2))
    assert c.prompt(100, 765) == pytest.approx(90 + 153)
    assert c.completion("cot", "none") == (3.5, "CoT with clues none (10 replies)")
    assert c.completion("cot", "run:xyz")[0] == 10.5          # any run is one clue source
    assert c.completion("cot", "gt") == (7.0, "CoT, any clue source (20 replies)")
    assert c.completion("clue_guided", "none") == (
        7.0, "Clue-guided CoT as measured for CoT (20 replies)")
    assert c.completion("direct", "none") == (None, "No-CoT: a priori")
    assert costs.calibrate([], []).completion("cot", "none") == (None, "CoT: a priori")
    assert costs.calibrate([], []).prompt(100, 765) == 865
    assert basis_text("m", c, {}) == "nothing to send: the cache answers every request"
    assert basis_text("m", costs.calibrate([], []), {"cot: a priori": 350}).startswith(
        "a priori (~4 characters a token")


def test_plan_selects_items_lays_out_work_and_projects(store, make_item):
    for n in range(3):
        store.create_item(make_item(f"demo/Q_{n}"), "t")
    store.add_endpoint("e", "http://h/v1", "m")
    store.set_price("m", 1, 2)
    plan = plan_run(store, RunConfig(endpoint="e", setting="cot", clues="self", samples=2,
                                     repeats=2, seed=5, filters={"dataset": "demo"}))
    assert len(plan.items) == 3 and len(plan.work) == 3 * 2 * (1 + 2)
    assert ("clues", "demo/Q_0", 1, 0, 6, 1) in plan.work
    assert ("answer", "demo/Q_0", 1, 1, 8, 1) in plan.work
    assert plan.projection["priced"] and plan.projection["requests"] == 18
    assert {"system_clue_guided", "system_cot"} <= set(plan.resolved["templates"])
    with pytest.raises(ConfigError, match="do not exist"):
        plan_run(store, RunConfig(endpoint="e", ids=["demo/Q_0", "nope"]))
    with pytest.raises(ConfigError, match="no items match"):
        plan_run(store, RunConfig(endpoint="e", filters={"dataset": "none"}))


def test_the_preview_is_the_exact_first_request(store, make_item):
    from runner.planning import preview_request
    from runner.work import WorkBuilder

    store.create_item(make_item("demo/Q_1"), "t")
    store.add_endpoint("e", "http://h/v1", "m", params={"temperature": 0})
    plan = plan_run(store, RunConfig(endpoint="e", setting="structured", seed=4,
                                     image_format="png", ids=["demo/Q_1"]))
    preview = preview_request(store, plan)
    payload = preview["payload"]
    assert payload["model"] == "m" and payload["seed"] == 4 and payload["temperature"] == 0
    [image] = [p for p in payload["messages"][1]["content"] if p["type"] == "image_url"]
    assert image["image_url"]["url"].startswith("data:image/png;base64,")
    builder = WorkBuilder(plan.resolved, PromptSet.load(store, plan.resolved["templates"]),
                          plan.items)
    work = {"id": 1, "phase": "answer", "item_id": "demo/Q_1", "repeat": 0, "sample": 0}
    assert preview["cache_key"] == builder.build(work).key and preview["cached"] is False


def test_a_plan_warns_about_items_without_an_image(store, make_item):
    """An import that found no images keeps its items (flagged): a run under an image mode
    on them must say the model sees only text, not report it as a visual evaluation."""
    store.create_item(make_item("demo/Q_0"), "t")
    store.create_item(make_item("demo/Q_1", n_images=0, n_clues=0), "t")
    store.add_endpoint("e", "http://h/v1", "m")
    plan = plan_run(store, RunConfig(endpoint="e", filters={"dataset": "demo"}))
    assert any(w.startswith("1 of 2 items have no image: the model sees only their text")
               for w in plan.warnings)
    text_only = plan_run(store, RunConfig(endpoint="e", image_mode="text_only",
                                          filters={"dataset": "demo"}))
    assert not any("have no image" in w for w in text_only.warnings)
