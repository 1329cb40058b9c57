"""Matcher 3: polarity, contractions, antonyms, word forms, words of degree (formulas are
in test_grading_formulas.py)."""

import pytest

from quizzes.grading import grade_free, mention_label, negated_label
from quizzes.grading.text import tokenize


def read(expected, answer, *, reject=(), pass_mentions=None):
    result = grade_free(
        expected=expected, pass_mentions=pass_mentions, answer=answer, reject=reject
    )
    return result.correct, result.mentions[0].status, result.mentions[0].negative


NOT_RECOMPUTED = [["not recomputed", "no se recalculan"]]


@pytest.mark.parametrize(
    "answer",
    [
        "the keys and values don't have to be recomputed",
        "they don’t get recomputed",  # the typographic apostrophe
        "they are never recomputed",
        "no hace falta recalcularlos",
        "los valores no se recalculan",
    ],
)
def test_negative_mention_is_found_in_negative_paraphrases(answer):
    assert read(NOT_RECOMPUTED, answer) == (True, "found", True)


@pytest.mark.parametrize(
    "answer", ["they are recomputed at every step", "se recalculan en cada paso"]
)
def test_negative_mention_contradicted_reads_as_the_opposite(answer):
    assert read(NOT_RECOMPUTED, answer) == (False, "negated", True)


@pytest.mark.parametrize("answer", ["it can't see future tokens", "it can’t see them"])
def test_contraction_with_either_apostrophe_negates(answer):
    assert read(["see"], answer) == (False, "negated", False)


def test_contraction_reads_as_not():
    assert tokenize("can't, don’t").norms == ["can", "not", "don", "not"]


@pytest.mark.parametrize(
    ("answer", "correct"),
    [("it doesn't overfit", True), ("evita el sobreajuste", True), ("causes overfitting", False)],
)
def test_preventing_verb_also_reads_as_negation_of_the_rest(answer, correct):
    assert read([["prevents overfitting", "evita el sobreajuste"]], answer)[0] is correct


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("less overfitting", True),
        ("sobreajusta menos", True),
        ("it decreases overfitting", True),
        ("more overfitting", False),
        ("it doesn't reduce overfitting", False),
    ],
)
def test_reducing_verb_also_reads_as_less_of_the_rest(answer, correct):
    assert read([["reduces overfitting"]], answer)[0] is correct


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        (["stability"], "instability"),
        (["estabilidad"], "inestabilidad"),
        (["increase"], "decrease"),
        # The vocabulary's opposites, either way round and through their stems: each
        # within two edits of the other, so only the vocabulary keeps them apart.
        (["increasing"], "decreasing"),
        (["decreasing"], "increasing"),
        (["increases"], "decreases"),
        (["increased"], "decreased"),
        (["stable"], "unstable"),
    ],
)
def test_typo_never_bridges_an_antonym(expected, answer):
    assert read(expected, answer) == (False, "missed", False)


def test_a_typo_is_no_doubt_where_a_phrasing_stands_as_written():
    """ "identdad" is a typo of one phrasing, but "tal cual" stands whole: the mention is
    found without the typo, so the verdict is sure and the feedback names none."""
    result = grade_free(
        expected=[["identity", "identidad", "tal cual"]],
        pass_mentions=None,
        answer="el residual pasa el gradiente como identdad, tal cual",
    )

    assert (result.correct, result.doubts, result.mentions[0].typos) == (True, (), ())


def test_typo_still_forgiven_without_a_negating_prefix():
    assert read(["important"], "it is inportant")[0] is True


def test_spanish_verb_form_found_through_its_lemma():
    assert read(["diverge"], "evita que el entrenamiento diverja")[0] is True


@pytest.mark.parametrize(
    ("answer", "rejected"),
    [
        ("the model picks likely tokens more often and the text is less random", False),
        ("the text is more random", True),
        ("el texto es menos aleatorio", False),
        ("el texto es más aleatorio", True),
    ],
)
def test_word_of_degree_binds_to_its_neighbour(answer, rejected):
    result = grade_free(
        expected=[["less random", "menos aleatorio"]],
        pass_mentions=None,
        answer=answer,
        reject=[["more random", "más aleatorio"]],
    )

    assert (bool(result.rejected), result.correct) == (rejected, not rejected)


@pytest.mark.parametrize(
    ("expected", "answer", "status"),
    [
        ([["sharper", "more peaked"]], "the distribution gets less peaked", "negated"),
        ([["sharper", "more peaked"]], "it gets peaked around the best token", "found"),
        ([["más afilada", "picuda"]], "la distribución queda menos picuda", "negated"),
        # Without a phrasing of degree, "less" may be the claim itself.
        ([["memory", "memoria"]], "trading compute for less memory", "found"),
    ],
)
def test_less_before_a_directional_mention_reads_as_its_opposite(expected, answer, status):
    assert read(expected, answer)[1] == status


def test_phrase_never_shrinks_to_one_word_of_three():
    assert read(["e to the power"], "2 to the power of 3")[0] is False


def test_blow_up_is_not_widened_to_big():
    assert read([["blows up", "explota"]], "the gradient is big")[0] is False


def test_re_prefix_stays_on_its_word():
    assert read(["re-compute"], "you compute it once")[0] is False


@pytest.mark.parametrize(
    ("expected", "answer", "correct"),
    [
        (["normalized"], "an un-normalised shortcut", False),  # not the article "un"
        (["unnormalized"], "an un-normalised shortcut", True),
        (["unnormalized"], "the branch is normalized", False),
    ],
)
def test_un_prefix_stays_on_its_word(expected, answer, correct):
    assert read(expected, answer)[0] is correct


@pytest.mark.parametrize(
    ("expected", "answer", "correct"),
    [
        (["order"], "we add them in order to help training", False),
        (["order"], "it has no sense of the order of the tokens", False),  # negated
        (["order"], "the order of the tokens matters", True),
        (["square of the gradient"], "the gradient's square root", False),
        (["square of the gradient"], "the square of the gradient", True),
        (["square root"], "divide by the square root", True),
    ],
)
def test_words_of_a_fixed_expression_do_not_stand_alone(expected, answer, correct):
    assert read(expected, answer)[0] is correct


@pytest.mark.parametrize(
    ("expected", "answer", "correct"),
    [
        (["parar el entrenamiento"], "pararia el entrenamiento ahi", True),  # pararía
        (["aprender"], "el modelo aprendio la tarea", True),  # aprendió
        (["regularization"], "regularise it", True),
        (["normalization"], "the normalisation layer", True),
        (["noise"], "the model raises its loss", False),  # short words keep their -ise
    ],
)
def test_word_forms_without_accents_and_british_spellings(expected, answer, correct):
    assert read([expected], answer)[0] is correct


@pytest.mark.parametrize(
    ("answer", "correct"),
    [("todos con la misma prob", True), ("todos con la misma salida", False)],
)
def test_a_vocabulary_phrase_takes_its_words_synonyms(answer, correct):
    assert read([["misma probabilidad"]], answer)[0] is correct


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("one bad batch can blow the whole run up", "found"),
        ("one bad batch can blow the whole long training run up", "missed"),  # too far
        ("one bad batch doesnt blow the run up", "negated"),  # no apostrophe
    ],
)
def test_a_particle_may_follow_the_object(answer, status):
    assert read([["blow up"]], answer)[1] == status


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("without it you can get NaN", "found"),
        ("sin eso sale NaN", "found"),
        ("without clipping NaN appears", "negated"),
    ],
)
def test_without_a_pronoun_negates_only_the_pronoun(answer, status):
    assert read([["nan"]], answer)[1] == status


@pytest.mark.parametrize(
    ("expected", "answer", "correct"),
    [
        ("prevent overfitting", "it reduces overfitting", True),
        ("prevent overfitting", "less overfitting", True),
        ("prevent overfitting", "el modelo sobreajusta menos", True),
        ("prevent overfitting", "it causes overfitting", False),
        ("stop training", "keep training until the loss goes down", False),
    ],
)
def test_keeping_from_is_also_lessening(expected, answer, correct):
    assert read([expected], answer)[0] is correct


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("it generalises poorly", "found"),
        ("it does not generalise", "found"),
        ("it generalises well", "negated"),
    ],
)
def test_poorly_negates_what_it_qualifies(answer, status):
    assert read([["generalize poorly"]], answer)[1] == status


OVERSHOOT = [["jumps past the minimum", "other side of the valley"]]


@pytest.mark.parametrize(
    ("answer", "prompt", "status"),
    [
        # Words of two slots of the mention, no phrasing whole: found by its words.
        ("each step jumps clear across the valley", "", "found"),
        # Both words of one slot count once.
        ("it jumps and jumped", "", "missed"),
        # Words the prompt uses say nothing.
        ("each step jumps clear across the valley", "Why does the step jump the valley?", "missed"),
        # Not in a negated clause.
        ("the step never jumps across the valley", "", "missed"),
    ],
)
def test_a_mention_is_found_by_its_words_in_one_clause(answer, prompt, status):
    result = grade_free(expected=OVERSHOOT, pass_mentions=None, answer=answer, prompt=prompt)
    assert result.mentions[0].status == status
    assert result.mentions[0].field is (status == "found")
    assert ("field" in result.doubts) is (status == "found")


def test_a_phrasing_found_whole_is_no_doubt():
    result = grade_free(expected=OVERSHOOT, pass_mentions=None, answer="it jumps past the minimum")
    assert (result.correct, result.mentions[0].field, result.doubts) == (True, False, ())


@pytest.mark.parametrize("language", ["es", "en", None])
def test_an_authors_word_met_by_a_group_through_its_stem_stays_in_the_key(language):
    # "probable" meets the group of "probability" by its English stem only.
    result = grade_free(
        expected=[["probable"]],
        pass_mentions=None,
        answer="elige siempre el token mas probable",
        language=language,
    )
    assert result.correct is True


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("It is not because of the identity path; the norm shrinks the gradients.", "negated"),
        ("Not because of identity.", "negated"),
        ("The identity path has nothing to do with it.", "negated"),
        ("la identidad no tiene nada que ver", "negated"),
        ("it trains because of the identity path", "found"),
        ("identity, nothing else", "found"),
    ],
)
def test_a_denied_reason_and_nothing_to_do_with_negate(answer, status):
    assert read([["identity", "identidad"]], answer)[1] == status


SPIKE = ["3σ", "3 sigma", "three sigma", "tres sigma", "tres desviaciones estándar"]


@pytest.mark.parametrize(
    ("alternatives", "language", "label"),
    [
        (
            ["identity", "identidad", "unit gain", "ganancia unitaria"],
            "en",
            "identity / unit gain / …",
        ),
        (
            ["identity", "identidad", "unit gain", "ganancia unitaria"],
            "es",
            "identidad / ganancia unitaria / …",
        ),
        (SPIKE, "en", "3σ / 3 sigma / three sigma / …"),  # "3σ", "3 sigma": no language
        (SPIKE, "es", "3σ / 3 sigma / tres sigma / …"),
        (["ganancia unitaria"], "en", "ganancia unitaria"),  # none in English: the first
        (["row", "fila"], "es", "fila / …"),
        # a word of each language: "de", which only Spanish leaves out, settles it
        (["fila de embedding", "embedding row"], "en", "embedding row / …"),
    ],
)
def test_feedback_names_a_mention_by_its_phrasings_in_the_readers_language(
    alternatives, language, label
):
    assert mention_label(alternatives, language) == label


PRE_LN = ["identity", "identidad", "unit gain", "sin escalar", "not normalized", "sin normalizar"]


@pytest.mark.parametrize(
    ("alternatives", "language", "said", "label"),
    [
        # The phrasing the answer's words contradict first, then the other negative ones.
        (PRE_LN, "es", "normalizacion", "sin normalizar / sin escalar / …"),
        (PRE_LN, "es", "", "sin escalar / sin normalizar / …"),
        (PRE_LN, "en", "normalization", "not normalized / …"),
        (["not recomputed"], "en", "recomputed", "not recomputed"),
        (["identity", "unit gain"], "en", "", "identity / unit gain"),  # none negative
    ],
)
def test_a_contradicted_negative_mention_is_named_by_its_negative_phrasings(
    alternatives, language, said, label
):
    assert negated_label(alternatives, language, said) == label


@pytest.mark.parametrize(
    ("expected", "answer", "reading"),
    [
        # The mention is about keeping overflow away: "no infinities" says it is.
        (["prevent overflow", "overflow", "inf"], "there are no inf values any more", "found"),
        (["evitar desbordar", "desborda", "infinito"], "no hay infinitos", "found"),
        # Saying the thing happens is found as before; denying the prevention is not.
        (["prevent overflow", "overflow", "inf"], "exp would overflow", "found"),
        (["prevent overflow", "overflow"], "it does not prevent overflow", "negated"),
        (["evitar desbordar", "desborda"], "no evita que desborde", "negated"),
        # Without a phrasing of keeping from, a negated plain phrasing stays negated.
        (["overflow", "inf"], "there are no inf values any more", "negated"),
    ],
)
def test_a_mention_of_what_is_kept_away_is_found_where_it_is_denied(expected, answer, reading):
    assert read([expected], answer)[1] == reading


@pytest.fixture
def vocabulary_with(monkeypatch):
    """The shared vocabulary file with some entries added, read as the grader reads it."""
    from pathlib import Path

    import yaml

    from quizzes.grading import keys
    from quizzes.grading.vocabulary import VOCABULARY_FILE, vocabulary_parse

    def use(**added):
        raw = yaml.safe_load(Path(VOCABULARY_FILE).read_text(encoding="utf-8"))
        for name, entries in added.items():
            raw[name] = {lang: raw[name][lang] + extra for lang, extra in entries.items()}
        monkeypatch.setattr(keys, "vocabulary_load", lambda: vocabulary_parse(raw=raw))
        keys.compile_key.cache_clear()

    yield use
    keys.compile_key.cache_clear()


def test_postposed_negations_and_pronoun_cues_are_read_from_the_vocabulary(vocabulary_with):
    expected = [["converge"]]
    answer = "it will converge fatally"
    assert read(expected, answer)[1] == "found"

    vocabulary_with(postposed_negations={"en": ["fatally"]}, negations={"en": ["fatally"]})

    assert read(expected, answer)[1] == "negated"
    # The file's own entries still hold beside the added one.
    assert read(expected, "it will converge poorly")[1] == "negated"
