"""Options a model cannot tell apart are what it is shown of both, text and image: one text
over two pictures (or two texts over one picture) is told apart and stays allowed."""
from judges.option_duplicates import same_options

LABELS = ["A", "B"]


def test_one_text_over_two_images_is_told_apart():
    assert same_options(LABELS, [{"text": "photo", "image": "a" * 64},
                                 {"text": "photo", "image": "b" * 64}]) == []
    assert same_options(LABELS, [{"text": "red", "image": "a" * 64},
                                 {"text": "blue", "image": "a" * 64}]) == []


def test_the_same_text_and_image_is_said_so():
    assert same_options(LABELS, [{"text": "Red  car", "image": "a" * 64},
                                 {"text": "red car", "image": "a" * 64}]) == [
        "duplicated option: options A and B have the same text and image"]
    assert same_options(LABELS, [{"text": "", "image": "a" * 64},
                                 {"text": None, "image": "a" * 64}]) == [
        "duplicated option: options A and B have the same image"]
    assert same_options(LABELS, [{"text": "", "image": None}, {"text": "", "image": None}]) == []
