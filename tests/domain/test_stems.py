"""labeler.stems: query terms found as exact words and by Snowball stem, in the topic's language."""

from __future__ import annotations

import pytest

from labeler.stems import DEFAULT_LANGUAGE, find_terms, language_name, languages, topic_language


def found(text, terms, language=DEFAULT_LANGUAGE):
    """[(word in the text, term, exact)] for every match, in reading order."""
    return [(text[m.start : m.end], m.term, m.exact) for m in find_terms(text, terms, language)]


def test_exact_words_and_words_of_the_same_stem_are_told_apart():
    text = "Heat pumps: a PUMP moves heat; pumping costs. The pumpkin is not one."
    assert found(text, ["pump"]) == [("pumps", "pump", False), ("PUMP", "pump", True), ("pumping", "pump", False)]


def test_a_word_of_the_same_stem_as_a_longer_term():
    text = "Anthropology and the anthropological record; anthropologists and anthropoids"
    assert found(text, ["anthropology"]) == [
        ("Anthropology", "anthropology", True),
        ("anthropological", "anthropology", False),
        ("anthropologists", "anthropology", False),
    ]


def test_punctuation_around_words_and_inner_apostrophes():
    text = "(pumps), pump's and pump’s; heat-pump!"
    assert found(text, ["pump"]) == [
        ("pumps", "pump", False),
        ("pump", "pump", True),  # the term as a whole word: its possessive ending is not marked
        ("pump", "pump", True),
        ("pump", "pump", True),  # `heat-pump`: the hyphen is a word boundary
    ]
    assert found(text, ["pumps"]) == [
        ("pumps", "pumps", True),
        ("pump's", "pumps", False),  # a word with an inner apostrophe is one word
        ("pump’s", "pumps", False),  # the typographic apostrophe, stemmed as the ASCII one
        ("pump", "pumps", False),
    ]


def test_a_term_that_is_not_one_word_is_found_only_as_it_is():
    text = "a heat-pump, heat pumps, heat-pumps"
    assert found(text, ["heat-pump"]) == [("heat-pump", "heat-pump", True)]


def test_terms_are_found_in_any_case_and_reported_as_given():
    assert found("PUMPS and Pump", ["pump"]) == [("PUMPS", "pump", False), ("Pump", "pump", True)]


def test_two_terms_of_one_stem_each_keep_their_exact_words():
    assert found("pump pumps pumped", ["pump", "pumps"]) == [
        ("pump", "pump", True),
        ("pumps", "pumps", True),
        ("pumped", "pump", False),  # the first term of the stem
    ]


def test_unicode_words_in_the_topics_language():
    assert found("Die Häuser und das Haus", ["haus"], "german") == [
        ("Häuser", "haus", False),
        ("Haus", "haus", True),
    ]
    assert found("насосы и насос", ["насос"], "russian") == [("насосы", "насос", False), ("насос", "насос", True)]
    assert found("насосы и насос", ["насос"]) == [("насос", "насос", True)]  # English stems no Russian


def test_without_a_language_terms_are_found_exactly_only():
    assert found("pumps and a pump", ["pump"], None) == [("pump", "pump", True)]


def test_no_terms_no_matches():
    assert find_terms("pumps", []) == [] and find_terms("pumps", [""]) == []


@pytest.mark.parametrize(
    ("value", "name"),
    [("german", "german"), ("German ", "german"), ("de", "german"), ("EN", "english"), ("nb", "norwegian")],
)
def test_language_names_and_iso_codes(value, name):
    assert language_name(value) == name


@pytest.mark.parametrize("value", ["deutsch", "zh", "porter", "dutch_porter", "", "eng"])
def test_what_no_stemmer_covers_is_not_a_language(value):
    assert language_name(value) is None


def test_the_languages_are_pystemmers_without_its_variants():
    import Stemmer

    assert set(languages()) == set(Stemmer.algorithms()) - {"porter", "dutch_porter"}
    assert "english" in languages()


def test_a_topics_language_from_its_fields():
    assert topic_language({}) == "english"
    assert topic_language({"language": "fr"}) == "french"
    assert topic_language({"lang": "Spanish"}) == "spanish"
    assert topic_language({"language": "klingon"}) is None  # stored before the field was checked: exact only
    assert topic_language({"lang": 3}) is None
