"""Quiz content copied from the YAML files: phases, questions and immutable revisions."""

from collections.abc import Sequence

from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from portal.db import WriteOnce

from .enums import QuestionKind
from .grading import Grade, grade, grading_prompt
from .grading.numeric import NumericKey, numeric_key


def localized(texts: dict[str, str], language: str) -> tuple[str, str]:
    """The text in `language`, falling back to English; also which language it is in."""
    if texts.get(language):
        return texts[language], language
    return texts.get("en", ""), "en"


def localized_now(texts: dict[str, str]) -> str:
    """The text in the active language (the request's), falling back to English."""
    return localized(texts, (translation.get_language() or "en")[:2])[0]


class PhaseQuerySet(models.QuerySet):
    def active(self):
        return self.filter(retired_at__isnull=True)

    def numbered(self, value: str | None):
        """The phase a `?phase=` value names, or None when it names none: anything but
        up to nine ASCII digits is no number (isdigit() alone takes "²" and "١٠", which
        int() refuses or reads otherwise)."""
        if not value or not (value.isascii() and value.isdigit()) or len(value) > 9:
            return None
        return self.filter(number=int(value)).first()


class Phase(models.Model):
    number = models.PositiveIntegerField(_("number"), unique=True)
    slug = models.SlugField(_("slug"), max_length=100)
    title_en = models.CharField(_("title (English)"), max_length=300)
    title_es = models.CharField(_("title (Spanish)"), max_length=300, blank=True)
    source_file = models.CharField(_("source file"), max_length=300)
    # sha256 of the file (and the rules it was checked by) when last imported: an
    # unchanged file is not read again.
    source_hash = models.CharField(_("source hash"), max_length=64, blank=True, default="")
    retired_at = models.DateTimeField(_("retired at"), null=True, blank=True)

    objects = PhaseQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        verbose_name = _("phase")
        verbose_name_plural = _("phases")

    def __str__(self) -> str:
        # In the reader's language where the file gives one (the admin's filters and
        # lists name phases so), else in English.
        return f"{self.number:02d} {localized_now(self.title_texts)}"

    @property
    def title_texts(self) -> dict[str, str]:
        return {"en": self.title_en, "es": self.title_es}


class QuestionQuerySet(models.QuerySet):
    def active(self):
        return self.filter(retired_at__isnull=True)

    def retired(self):
        return self.filter(retired_at__isnull=False)

    def for_phase(self, phase: Phase):
        return self.filter(phase=phase)


class Question(models.Model):
    """A question's stable identity; what it says lives on its revisions."""

    code = models.CharField(
        _("id"), max_length=64, unique=True, help_text=_("Stable id from the YAML.")
    )
    phase = models.ForeignKey(
        Phase, on_delete=models.PROTECT, related_name="questions", verbose_name=_("phase")
    )
    position = models.PositiveIntegerField(_("position"))
    current_revision = models.ForeignKey(
        "QuestionRevision",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        verbose_name=_("current revision"),
    )
    retired_at = models.DateTimeField(_("retired at"), null=True, blank=True)

    objects = QuestionQuerySet.as_manager()

    class Meta:
        ordering = ["phase__number", "position"]
        verbose_name = _("question")
        verbose_name_plural = _("questions")

    def __str__(self) -> str:
        return self.code

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None


class QuestionRevision(WriteOnce):
    """One distinct content of a question. Written once, never changed or deleted:
    attempts point at the revision the learner saw."""

    question = models.ForeignKey(
        Question,
        on_delete=models.PROTECT,
        related_name="revisions",
        verbose_name=_("question"),
    )
    write_once_message = "A question revision is never modified once written."

    number = models.PositiveIntegerField(_("revision"))
    content_hash = models.CharField(_("content hash"), max_length=64)
    kind = models.CharField(_("kind"), max_length=10, choices=QuestionKind.choices)
    title_en = models.TextField(_("title (English)"))
    title_es = models.TextField(_("title (Spanish)"), blank=True)
    prompt_en = models.TextField(_("prompt (English)"), blank=True)
    prompt_es = models.TextField(_("prompt (Spanish)"), blank=True)
    explanation_en = models.TextField(_("explanation (English)"))
    explanation_es = models.TextField(_("explanation (Spanish)"), blank=True)
    # [{"key": "A", "text": {"en": ..., "es": ...}, "correct": bool}, ...]
    options = models.JSONField(_("options"), default=list, blank=True)
    # [["3σ", "3 sigma"], ["rolling mean"]]: each mention is a list of alternatives.
    expected = models.JSONField(_("expected mentions"), default=list, blank=True)
    pass_mentions = models.PositiveIntegerField(_("mentions needed"), null=True, blank=True)
    # Mentions that make a free answer wrong, shaped like `expected`.
    reject = models.JSONField(_("rejected mentions"), default=list, blank=True)
    # [{"answer": "...", "right": true, "lang": "es"}]: checked by the importer, kept
    # for instructors.
    examples = models.JSONField(_("examples"), default=list, blank=True)
    # A numeric question's key: {"answer": 3.5, "tolerance": 0.05 or "5%", "unit":
    # {"en": "GB", "es": "GB"}} (tolerance and unit when given); {} for other kinds.
    numeric = models.JSONField(_("numeric key"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["question", "number"]
        verbose_name = _("question revision")
        verbose_name_plural = _("question revisions")
        constraints = [
            models.UniqueConstraint(fields=["question", "number"], name="revision_number_unique"),
            models.UniqueConstraint(
                fields=["question", "content_hash"], name="revision_content_unique"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=QuestionKind.values), name="revision_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.question.code} r{self.number}"

    def delete(self, *args, **kwargs):
        raise ValueError("A question revision is never deleted.")

    def text(self, field: str, language: str) -> tuple[str, str]:
        """A text field in `language` with per-field fallback to English."""
        return localized(
            {"en": getattr(self, f"{field}_en"), "es": getattr(self, f"{field}_es")},
            language,
        )

    @property
    def title_texts(self) -> dict[str, str]:
        return {"en": self.title_en, "es": self.title_es}

    @property
    def prompt_texts(self) -> dict[str, str]:
        return {"en": self.prompt_en, "es": self.prompt_es}

    @property
    def explanation_texts(self) -> dict[str, str]:
        return {"en": self.explanation_en, "es": self.explanation_es}

    @property
    def correct_keys(self) -> list[str]:
        return [option["key"] for option in self.options if option.get("correct")]

    # Templates ask these instead of comparing `kind` with string literals.
    @property
    def is_single(self) -> bool:
        return self.kind == QuestionKind.SINGLE

    @property
    def is_multi(self) -> bool:
        return self.kind == QuestionKind.MULTI

    @property
    def is_free(self) -> bool:
        return self.kind == QuestionKind.FREE

    @property
    def is_numeric(self) -> bool:
        return self.kind == QuestionKind.NUMERIC

    @property
    def numeric_key(self) -> NumericKey | None:
        """The numeric key read for grading and display; None for other kinds."""
        return numeric_key(self.numeric) if self.is_numeric and self.numeric else None

    def unit(self, language: str) -> str:
        """A numeric question's unit in `language` (English when it has none), or ""."""
        return localized(self.numeric.get("unit") or {}, language)[0] if self.numeric else ""

    def grade(
        self, *, keys: Sequence[str] = (), text: str = "", language: str | None = None
    ) -> Grade:
        """Grade an answer against this revision's key: the one way every caller grades.
        `language` is the answer's when known; None reads it in both languages."""
        return grade(
            kind=self.kind,
            correct_keys=self.correct_keys,
            expected=self.expected,
            pass_mentions=self.pass_mentions,
            reject=self.reject or (),
            keys=keys,
            text=text,
            language=language,
            numeric=self.numeric or None,
            prompt=self.grading_prompt,
        )

    @property
    def grading_prompt(self) -> str:
        """The title and prompt in every language, as the free-text grader takes them:
        words the question already uses never find a mention by themselves."""
        return grading_prompt(self.title_texts, self.prompt_texts)
