"""From a work row to a request: messages, sampling parameters, cache key, injected clues.

Shared by the planner (projections, cache look-ahead) and the engine (execution), so both
compute the same key for the same work row. The phase 'clues' is the first pass of
clues=self: the clue-finding setting, no clues injected, sample 0.
"""
from __future__ import annotations

from dataclasses import dataclass

from runner.cache import cache_key, messages_digest
from runner.config import request_seed
from runner.messages import ImageOptions, build_messages
from runner.prompts import PromptSet
from store.runner_work import NO_SOURCE_CLUE


@dataclass
class Request:
    """A work row made concrete. `error` is set (and nothing is sent) when the request
    cannot be made, e.g. the clue source has no clues for this item."""
    work: dict
    messages: list | None = None
    params: dict | None = None
    key: str | None = None
    error: str | None = None
    digest: str | None = None   # of the messages; the samples of an item share it

    @property
    def item_id(self) -> str:
        return self.work["item_id"]


def clue_texts(clues: list[dict]) -> list[str]:
    """The texts of extracted or GT clues (reasoning is left out: it often states the
    answer, which would turn clue injection into answer injection)."""
    return [" ".join(str(c.get("text") or "").split()) for c in clues
            if str(c.get("text") or "").strip()]


class WorkBuilder:
    """Builds the requests of one run from its recorded (resolved) config."""

    def __init__(self, config: dict, prompts: PromptSet, items: dict[str, dict]):
        self.config = config
        self.prompts = prompts
        self.items = items
        self.base_url = config["endpoint"]["base_url"]
        self.model = config["endpoint"]["model"]
        self.images = ImageOptions(config["image_mode"], config["mask_style"],
                                   config.get("image_max_pixels"), config["image_format"],
                                   config["image_quality"])
        self.clue_source = config["clues"]
        self.injected: dict[tuple[str, int], dict] = {}   # (item, repeat) -> clues
        self._messages: dict[tuple, list] = {}

    def set_clue_responses(self, found: dict[tuple[str, int], dict]) -> None:
        """Clues of another run (keyed (item, 0)) or of this run's first pass."""
        self.injected = found

    def phase_setting(self, phase: str) -> str:
        return self.config["clue_pass_setting"] if phase == "clues" else self.config["setting"]

    def _clues_for(self, work: dict) -> tuple[list[str] | None, str | None]:
        """(clue texts or None for no clue block, error reason or None)."""
        source = self.clue_source
        if work["phase"] == "clues" or source == "none":
            return None, None
        item = self.items[work["item_id"]]
        if source == "gt":
            texts = clue_texts(item.get("clues") or [])
            return (texts, None) if texts else (None, "the item has no GT clues to inject")
        repeat = work["repeat"] if source == "self" else 0
        found = self.injected.get((work["item_id"], repeat))
        head = "no clues from the first pass" if source == "self" else \
            f"{NO_SOURCE_CLUE}{source[4:]}"        # counted apart: store.runner_work
        if found is None:
            return None, f"{head} for this item (no result recorded)"
        texts = clue_texts(found["clues"])
        if not texts:
            why = {"ok": "it was read but listed no clue",
                   "unparsed": "its reply listed no clue"}.get(found["status"],
                                                               f"it was {found['status']}")
            return None, (f"{head} for this item ({why}): the answer is asked "
                          f"with the clues injected, so it is not asked without any")
        return texts, None

    def params(self, work: dict) -> dict:
        params = dict(self.config["sampling"])
        base = params.get("seed")
        if base is not None:
            params["seed"] = request_seed(base, work["repeat"], work["sample"],
                                          self.config["repeats"])
        return params

    def messages(self, work: dict, clues: list[str] | None) -> list[dict]:
        return self._messages_and_digest(work, clues)[0]

    def _messages_and_digest(self, work: dict, clues: list[str] | None) -> tuple[list, str]:
        """Built and hashed once per item x phase x clue list: samples and repeats share
        their messages (work rows come item by item, so a small memory suffices)."""
        memo = (work["item_id"], work["phase"], tuple(clues) if clues is not None else None)
        found = self._messages.get(memo)
        if found is None:
            if len(self._messages) > 256:
                self._messages.clear()
            messages = build_messages(self.items[work["item_id"]],
                                      self.phase_setting(work["phase"]), self.prompts,
                                      self.images, clues)
            found = self._messages[memo] = (messages, messages_digest(messages))
        return found

    def build(self, work: dict) -> Request:
        if work["item_id"] not in self.items:
            return Request(work, error=f"item {work['item_id']} no longer exists")
        clues, error = self._clues_for(work)
        if error:
            return Request(work, error=error)
        messages, digest = self._messages_and_digest(work, clues)
        params = self.params(work)
        key = cache_key(self.base_url, self.model, None, params, work["sample"], work["repeat"],
                        digest=digest, item=work["item_id"])
        return Request(work, messages, params, key, digest=digest)


def load_items(store, run_id: str) -> dict[str, dict]:
    """The run's items as they were when it was planned: the current item when its version
    is unchanged, else the saved revision; deleted items are left out (their work rows are
    recorded as errors)."""
    from store import NotFoundError

    items = {}
    for item_id, version in store.run_item_versions(run_id).items():
        try:
            item = store.get_item(item_id)
            if version is not None and item["version"] != version:
                item = {**store.revision(item_id, version), "version": version}
        except NotFoundError:
            continue
        items[item_id] = item
    return items
