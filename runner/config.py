"""RunConfig: everything that defines an experiment, validated, and its config id.

The config id is the sha256 of the canonical JSON of what determines the model's replies:
items, setting, clue source, image mode and preprocessing, samples, repeats, sampling
parameters, the prompt template versions and the endpoint's base URL + model. Two runs with
the same id asked the same questions the same way. Execution controls (budget, deadline,
timeouts, concurrency) change how a run is carried out, not what it asks, so they are
recorded beside the config (`Execution`) and left out of the hash.
"""
from __future__ import annotations

import math

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field, fields, replace

from domain.geometry import AUTO, STATED_CONVENTIONS, convention_text

SETTINGS = ("direct", "cot", "clue_guided", "structured")
CLUE_PASS_SETTINGS = ("clue_guided", "structured")
IMAGE_MODES = ("full", "text_only", "clue_masked", "clue_crops")
MASK_STYLES = ("black", "blur")
IMAGE_FORMATS = ("jpeg", "png", "webp")
FILTER_KEYS = ("dataset", "domain", "subtask", "status", "flagged")
PRESETS = {
    # MMR-Life (seed 002): temperature 0.5, top_p 0.5, seed 17, several samples per item.
    "mmr-life": {"temperature": 0.5, "top_p": 0.5, "seed": 17},
}
# The protocol each preset is (seed 002: zero-shot CoT over the items' images, no clues):
# `--preset` alone implies its setting, and a run that departs from it is not labelled with it.
PRESET_PROTOCOLS = {
    "mmr-life": {"setting": "cot", "clues": "none", "image_mode": "full"},
}


def preset_departure(config: "RunConfig") -> str:
    """What of `config` departs from its preset's protocol ("setting clue_guided, clues
    gt"), '' when it follows it (or has no preset)."""
    protocol = PRESET_PROTOCOLS.get(config.preset or "", {})
    return ", ".join(f"{key.replace('_', ' ')} {getattr(config, key)}"
                     for key, value in protocol.items() if getattr(config, key) != value)


def without_departed_preset(config: "RunConfig") -> tuple["RunConfig", str]:
    """(config, warning): a config that departs from its preset's protocol keeps the
    preset's sampling as explicit values (the same experiment, the same config id) but
    not its name, so no picker or table labels it "preset mmr-life" (a clue_guided run
    with GT clues is not MMR-Life's protocol); the warning says so. Unchanged otherwise."""
    departs = preset_departure(config)
    if not departs:
        return config, ""
    sampling = {k: v if getattr(config, k) is None else getattr(config, k)
                for k, v in PRESETS[config.preset].items()}
    protocol = ", ".join(f"{k.replace('_', ' ')} {v}"
                         for k, v in PRESET_PROTOCOLS[config.preset].items())
    warning = (f"{departs}: not the {config.preset} preset's protocol ({protocol}); its "
               f"sampling is kept ({', '.join(f'{k} {v:g}' for k, v in sampling.items())}) "
               f"and the run is not labelled preset {config.preset}")
    return replace(config, preset=None, **sampling), warning


def draws_text(config: dict) -> str:
    """'5 samples', '3 repeats', '5 samples · 3 repeats', or '' for one of each: what every
    description of a run's setup (run pickers, the runs table, the tables' run labels,
    reports) says beside its setting, so that a 5-sample run is never read as one."""
    parts = []
    for key in ("samples", "repeats"):
        count = int(config.get(key) or 1)
        if count > 1:
            parts.append(f"{count} {key}")
    return " · ".join(parts)


def boxes_text(config: dict) -> str:
    """'boxes xywh pixels' when the run states its boxes' convention, '' for auto: said
    beside the setting wherever a run's setup is described (as `draws_text`), so that two
    runs reading the same replies' boxes two ways are told apart."""
    stated = config.get("box_convention") or AUTO
    return "" if stated == AUTO else f"boxes {convention_text(stated)}"


def preset_text(config: dict) -> str:
    """'preset mmr-life' when the run was started with a preset, '' otherwise: said beside
    the setting wherever a run's setup is described (as `draws_text`), so that an MMR-Life
    run (temperature 0.5, top_p 0.5, seed 17) is not read as a plain run of its setting."""
    preset = config.get("preset")
    return f"preset {preset}" if preset else ""


SAMPLING_KEYS = ("temperature", "top_p", "max_tokens", "seed")


def sampling_word(key: str, value) -> str:
    """One sampling parameter as every label says it: 'T 0.2', 'top_p 0.9', 'seed 5',
    'max_tokens 512' (the run labels' `sampling_text`, the injection table's row words)."""
    if key == "temperature":
        return f"T {value:g}" if isinstance(value, (int, float)) else f"T {value}"
    return f"{key} {value:g}" if isinstance(value, float) else f"{key} {value}"


def sampling_text(config: dict) -> str:
    """'T 0.2', 'seed 5', 'T 0.2 · top_p 0.9', or '' at the defaults: the sampling the run
    was given explicitly, said beside its setting wherever a run's setup is described (as
    `draws_text`). Runs differing only in it read the same in every picker and table ('vlm-a
    · CoT' three times). A value its preset implies goes unsaid: 'preset mmr-life' says it."""
    implied = PRESETS.get(config.get("preset") or "", {})
    return " · ".join(sampling_word(key, config[key]) for key in SAMPLING_KEYS
                      if config.get(key) is not None and config[key] != implied.get(key))


class ConfigError(ValueError):
    """A run configuration that cannot be run; the message says what to change."""


ID_LIST_RULE = "separated by commas or new lines; spaces around each id are ignored"
"""How a typed list of ids is read, in the words every field and option that takes one
states (an id may hold spaces: a space never separates)."""
_ID_SEPARATORS = re.compile(r"[,\r\n]+")


def parse_id_list(text) -> list[str]:
    """The ids of a typed list (ID_LIST_RULE), in order, each once; [] for none."""
    parts = (part.strip() for part in _ID_SEPARATORS.split(str(text or "")))
    return list(dict.fromkeys(part for part in parts if part))


def canonical_json(value) -> str:
    """The one serialisation that is hashed: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_json(value) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


@dataclass
class RunConfig:
    """What to ask, of which items, how often. Built by the CLI or the UI, then `resolve`d."""
    endpoint: str
    setting: str = "cot"
    clues: str = "none"                  # none | gt | run:<ID> | self
    clue_pass_setting: str = "clue_guided"   # first pass of clues=self
    image_mode: str = "full"
    mask_style: str = "black"            # clue_masked: black boxes or blur
    samples: int = 1
    repeats: int = 1
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    preset: str | None = None
    image_max_pixels: int | None = None  # None: the endpoint's limit, else the original size
    image_format: str = "jpeg"
    image_quality: int = 90
    filters: dict = field(default_factory=dict)   # dataset, domain, subtask, status, flagged
    ids: list[str] | None = None
    box_convention: str = AUTO           # how the replies' boxes are read: auto (detected per
                                         # reply) or stated (domain.geometry.BOX_CONVENTIONS)

    def validate(self) -> "RunConfig":
        def need(ok: bool, message: str) -> None:
            if not ok:
                raise ConfigError(message)

        need(self.setting in SETTINGS, f"setting must be one of {', '.join(SETTINGS)}, "
                                       f"not {self.setting!r}")
        need(self.clues in ("none", "gt", "self") or (self.clues.startswith("run:")
                                                      and len(self.clues) > 4),
             f"clue source must be none, gt, self or run:<RUN ID>, not {self.clues!r}")
        need(self.clue_pass_setting in CLUE_PASS_SETTINGS,
             f"the first pass of clues=self must use {' or '.join(CLUE_PASS_SETTINGS)}")
        need(self.image_mode in IMAGE_MODES,
             f"image mode must be one of {', '.join(IMAGE_MODES)}, not {self.image_mode!r}")
        need(self.mask_style in MASK_STYLES, "mask style must be black or blur")
        need(isinstance(self.samples, int) and 1 <= self.samples <= 1000,
             "samples must be 1..1000")
        need(isinstance(self.repeats, int) and 1 <= self.repeats <= 100,
             "repeats must be 1..100")
        need(self.temperature is None or 0 <= self.temperature <= 2,
             "temperature must be between 0 and 2")
        need(self.top_p is None or 0 < self.top_p <= 1, "top_p must be in (0, 1]")
        need(self.max_tokens is None or self.max_tokens >= 1, "max_tokens must be >= 1")
        need(self.preset is None or self.preset in PRESETS,
             f"unknown preset {self.preset!r}; known: {', '.join(PRESETS)}")
        need(self.image_max_pixels is None or self.image_max_pixels >= 1024,
             "image max pixels must be >= 1024")
        need(self.image_format in IMAGE_FORMATS,
             f"image format must be one of {', '.join(IMAGE_FORMATS)}")
        need(1 <= self.image_quality <= 100, "image quality must be 1..100")
        need(self.box_convention in STATED_CONVENTIONS,
             f"box convention must be one of {', '.join(STATED_CONVENTIONS)}, not "
             f"{self.box_convention!r}")
        unknown = set(self.filters) - set(FILTER_KEYS)
        need(not unknown, f"unknown item filters {sorted(unknown)}; use {', '.join(FILTER_KEYS)}")
        need(not (self.ids and any(v not in (None, "") for v in self.filters.values())),
             "give either explicit ids or filters, not both")
        need(self.ids is None or len(self.ids) > 0, "the list of ids is empty")
        return self

    def sampling(self, endpoint_params: dict | None = None) -> dict:
        """The sampling parameters sent with every request, lowest precedence first:
        the endpoint's defaults, then the preset, then what was given explicitly."""
        params = dict(endpoint_params or {})
        params.update(PRESETS.get(self.preset or "", {}))
        for name in SAMPLING_KEYS:
            value = getattr(self, name)
            if value is not None:
                params[name] = value
        return params

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "RunConfig":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def request_seed(base_seed: int | None, repeat: int, sample: int, repeats: int) -> int | None:
    """The seed sent for one repeat x sample: base + repeat when there is one sample per item
    (the seeds' protocol: repeat r uses seed base + r), and distinct for every sample
    otherwise (base + repeat + sample * repeats), so samples of a seeded run differ."""
    if base_seed is None:
        return None
    return base_seed + repeat + sample * repeats


@dataclass
class Execution:
    """How a run is carried out; recorded with the run, not part of its config id."""
    budget: float | None = None          # USD: stop dispatching when projected spend reaches it
    deadline: float | None = None        # seconds from the start of this execution
    request_timeout: float = 120.0       # seconds per attempt
    max_attempts: int = 6
    retry_base_delay: float = 0.5        # first backoff; doubles per attempt, with jitter
    concurrency: int | None = None       # None: the endpoint's
    batch_size: int = 20                 # results per commit
    batch_interval: float = 0.5          # seconds between commits
    stream: bool = False
    use_cache: bool = True               # False: send every request, take no cached reply

    def validate(self) -> "Execution":
        # nan passed "<= 0" and then limited nothing ("$nan"); inf is no amount either
        if self.budget is not None and not 0 < self.budget < math.inf:
            raise ConfigError("budget must be a positive amount of USD")
        if self.deadline is not None and not 0 < self.deadline < math.inf:
            raise ConfigError("deadline must be a positive number of seconds")
        if self.request_timeout <= 0:
            raise ConfigError("request timeout must be positive")
        if self.concurrency is not None and self.concurrency < 1:
            raise ConfigError("concurrency must be >= 1")
        if self.max_attempts < 1:
            raise ConfigError("max attempts must be >= 1")
        return self

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Execution":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def resolved_config(config: RunConfig, endpoint: dict, templates: dict[str, int],
                    items: list[str] | dict[str, int | None]) -> dict:
    """The recorded form of a run's config: the user's choices with every default filled in
    (sampling, image limit), the endpoint snapshot, the template versions, and a digest of
    the items (ids, with their versions when given as {id: version}: an edited item makes a
    different experiment)."""
    versions = items if isinstance(items, dict) else dict.fromkeys(items)
    item_ids = [f"{i}@{v}" if v is not None else i for i, v in versions.items()]
    data = config.to_dict()
    data["sampling"] = config.sampling(endpoint.get("params"))
    data["image_max_pixels"] = config.image_max_pixels or endpoint.get("max_image_pixels")
    data["endpoint"] = {k: endpoint.get(k) for k in ("name", "base_url", "model",
                                                     "api_key_env", "concurrency")}
    data["templates"] = dict(sorted(templates.items()))
    data["items"] = {"count": len(item_ids),
                     "ids_sha256": hashlib.sha256("\n".join(item_ids).encode()).hexdigest()}
    return data


def config_id(resolved: dict) -> str:
    """sha256 of what determines the replies (names and labels left out: renaming an
    endpoint or choosing a preset by hand instead of by name does not change the id; nor
    does the box convention, which says how the replies are read, not what is asked)."""
    hashed = {k: v for k, v in resolved.items() if k not in ("endpoint", "preset", "filters",
                                                             "ids", "temperature", "top_p",
                                                             "max_tokens", "seed",
                                                             "box_convention")}
    hashed["endpoint"] = {"base_url": resolved["endpoint"]["base_url"],
                          "model": resolved["endpoint"]["model"]}
    return sha256_json(hashed)
