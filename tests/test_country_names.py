"""Countries read as names wherever a page shows them as names, while the gold keeps the
lower case it is written in (`$germany,bavaria/bayern$`).

Found by a review: the Annotate page's Country list showed "germany", "côte d'ivoire"."""
from domain.places import country_name
from judges.gold_check import readable_gold
from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui import answer_form as af
from ui.editor_handlers import EditorHandlers
from ui.server import build_app


def test_a_country_name_is_capitalised_as_people_write_it():
    assert [country_name(n) for n in ("germany", "côte d'ivoire", "guinea-bissau",
                                      "bosnia and herzegovina", "republic of the congo",
                                      "usa", "uk", "dr congo", "ivory coast", "deutschland",
                                      "  new   zealand ")] == [
        "Germany", "Côte d'Ivoire", "Guinea-Bissau", "Bosnia and Herzegovina",
        "Republic of the Congo", "USA", "UK", "DR Congo", "Ivory Coast", "Deutschland",
        "New Zealand"]
    assert readable_gold("$côte d'ivoire,lagunes/abidjan$") == (
        "Côte d'Ivoire, Lagunes (also: Abidjan)")
    assert readable_gold("$usa,georgia$") == "USA, Georgia"


def test_the_country_list_shows_names_and_picks_the_golds_lower_case():
    choices = dict(af.country_choices())
    assert choices["Germany"] == "germany" and choices["Côte d'Ivoire"] == "côte d'ivoire"
    assert choices["Russia"] == "russia"              # the common names pycountry lacks
    labels = [label for label, _ in af.country_choices()]
    assert labels == sorted(labels, key=str.casefold)
    assert not [label for label in labels if label[:1].islower()], labels


def test_the_page_shows_germany_and_saves_germany(store, ui_store):
    """The Country dropdown of the built page shows "Germany" for the value "germany", and a
    gold built from it keeps the stored form."""
    country = [block for block in build_app(store).blocks.values()
               if getattr(block, "elem_id", None) == "item-loc-country"][0]
    assert ("Germany", "germany") in [tuple(choice) for choice in country.choices]
    editor = EditorHandlers(ui_store)
    work = editor.load("ui/alpha", "local")
    form = editor.form_values(work["item"]) | {
        "answer_type": "location", "loc_country": choices_value("Germany"),
        "loc_region": "bavaria", "loc_aliases": "bayern"}
    _, outcome = editor.save(work, form, None, "", "local")
    assert outcome["kind"] == "saved", outcome
    assert ui_store.get_item("ui/alpha")["answer"] == "$germany,bavaria/bayern$"


def choices_value(label: str) -> str:
    return dict(af.country_choices())[label]
