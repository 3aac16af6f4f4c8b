"""What an import did: counts and one line per problem, for the CLI, the UI and tests."""
from __future__ import annotations

from dataclasses import dataclass, field

from domain.item_ids import shown_id, visible


def problem(kind: str, where: str, expected: str = "") -> str:
    """One problem sentence, `kind: where (expected)`, the one shape of every sentence that is
    about a part of an imported item.

    `where` names the part by ClueLab's own count (image 2, option 3, clue 1, line 7; an
    option by a label of at most 4 letters or digits, "option B": judges.direction_parts) and
    `expected` says what was expected; neither ever holds a value read from the file (a
    path, a label, a key): a file imported by mistake may be a secret, and these sentences
    are shown in the browser, printed and logged. The value stays in the item's metadata.
    `kind` comes first, so problem_counts groups by it.
    """
    return f"{kind}: {where}" + (f" ({expected})" if expected else "")


class FormatError(Exception):
    """A fatal import/export error (unreadable file, wrong format). Nothing was written.

    The message always names the file, so the CLI and the UI can show it as it is.
    """

    def __init__(self, path, message: str):
        self.path = str(path)
        self.reason = message
        super().__init__(f"{path}: {message}")


@dataclass
class ImportReport:
    """Outcome of one `import_path` call.

    `items_read` counts items found in the file; `imported` those created (flagged ones
    included); with `--replace`, `replaced` the stored items they changed (a new revision)
    and `unchanged` those that were the same; `flagged` the created or replaced items that
    carry problems; `skipped` those not stored (id already in the store without --replace,
    or a released or deleted item, or an id with a control character); `skipped_by` counts
    them by reason, adding up to `skipped`; `images` the distinct images stored. imported +
    replaced + unchanged + skipped = items_read.
    `problems` has one entry per problem sentence, so an item with three problems appears
    three times. Item ids are kept in their visible form (domain.item_ids.shown_id): an id
    with a right-to-left override printed as it is turned the rest of its line around, and
    one over the id length limit is cut short.
    """

    format: str
    path: str
    dataset: str | None = None
    items_read: int = 0
    imported: int = 0
    flagged: int = 0
    skipped: int = 0
    replaced: int = 0
    back_to_review: int = 0          # of `replaced`: verified items changed, now in_review
    unchanged: int = 0
    images: int = 0
    problems: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    skipped_by: dict[str, int] = field(default_factory=dict)
    # {dataset: items created or replaced in it}, and those of them the import made: a file
    # whose lines named two datasets (or a malformed line, under the file's name) said none
    datasets: dict[str, int] = field(default_factory=dict)
    new_datasets: list[str] = field(default_factory=list)

    def went_into(self, dataset: str, is_new: bool) -> None:
        """An item created or replaced in `dataset` (`is_new`: the import made it)."""
        self.datasets[dataset] = self.datasets.get(dataset, 0) + 1
        if is_new and dataset not in self.new_datasets:
            self.new_datasets.append(dataset)

    def datasets_said(self) -> str:
        """"t: 1 item (new), lines: 1 item (new)": the datasets items went into."""
        return ", ".join(f"{visible(name)}: {n} item{'s' * (n != 1)}"
                         + (" (new)" if name in self.new_datasets else "")
                         for name, n in self.datasets.items())

    def add_problem(self, item_id: str, reason: str) -> None:
        self.problems.append({"item_id": shown_id(item_id), "reason": reason})

    def add_item_problems(self, item_id: str, problems: list[str], carried: int = 0) -> None:
        """The problems of an imported item, the first `carried` of which the file itself
        listed (a ClueLab JSONL's `problems`): those are the file's text, so they are counted
        in one sentence, not quoted; the item keeps them."""
        if carried:
            self.add_problem(item_id, problem(
                "problems listed in the file", f"{carried} sentence" + "s" * (carried != 1),
                "kept on the item; open it to read them"))
        for reason in problems[carried:]:
            self.add_problem(item_id, reason)

    def skip(self, item_id: str, why: str, sentence: str) -> None:
        """An item not stored: counted in `skipped` under `why`, its problem `sentence`."""
        self.skipped += 1
        self.skipped_by[why] = self.skipped_by.get(why, 0) + 1
        self.add_problem(item_id, sentence)

    def to_dict(self) -> dict:
        return {
            "format": self.format,
            "path": self.path,
            "dataset": self.dataset,
            "items_read": self.items_read,
            "imported": self.imported,
            "flagged": self.flagged,
            "skipped": self.skipped,
            "skipped_by": dict(self.skipped_by),
            "datasets": dict(self.datasets),
            "new_datasets": list(self.new_datasets),
            "replaced": self.replaced,
            "back_to_review": self.back_to_review,
            "unchanged": self.unchanged,
            "images": self.images,
            "problems": [dict(p) for p in self.problems],
            "seconds": round(self.seconds, 3),
        }

    def problem_counts(self) -> dict[str, int]:
        """Problems grouped by kind (the reason up to its first colon), most frequent first."""
        counts: dict[str, int] = {}
        for problem in self.problems:
            kind = problem["reason"].split(":", 1)[0]
            counts[kind] = counts.get(kind, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def nothing_imported(self) -> bool:
        """No item was added, replaced or found unchanged (every line skipped, or none)."""
        return not (self.imported or self.replaced or self.unchanged)

    def render_text(self) -> str:
        """Counts first, then one line per problem: `item_id: reason`."""
        head = (f"Imported {visible(self.path)} as {self.format}"
                + (f" into dataset {visible(self.dataset)}" if self.dataset else
                   f" into {len(self.datasets)} datasets" if len(self.datasets) > 1 else ""))
        if self.nothing_imported():      # "Imported …" read as a success when all was skipped
            head = (f"Nothing imported from {visible(self.path)} ({self.format}): "
                    f"{self.items_read} read, {self.skipped} skipped")
        lines = [
            head,
            f"  items read: {self.items_read}",
            f"  imported:   {self.imported} ({self.flagged} flagged)",
            f"  skipped:    {self.skipped}" + (" (" + "; ".join(
                f"{why}: {n}" for why, n in self.skipped_by.items()) + ")"
                if self.skipped_by else ""),
            *([f"  replaced:   {self.replaced} (a new revision each"
               + (f"; {self.back_to_review} verified, changed: back in review"
                  if self.back_to_review else "") + ")",
               f"  unchanged:  {self.unchanged}"] if self.replaced or self.unchanged else []),
            *([f"  datasets:   {self.datasets_said()}"] if self.datasets else []),
            f"  images:     {self.images}",
            f"  problems:   {len(self.problems)}",
            f"  seconds:    {self.seconds:.1f}",
        ]
        if self.problems:
            lines.append("Problems:")
            lines.extend(f"{p['item_id']}: {p['reason']}" for p in self.problems)
        return "\n".join(lines) + "\n"
