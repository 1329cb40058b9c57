"""One way to reverse a URL in a learner's template: `{% href %}`, reversed once per
process. The admin's templates keep Django's `{% url %}`, which follows the admin site
the request came through (`current_app`); `href` does not."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def test_learner_templates_reverse_links_with_href_only():
    with_url_tag = sorted(
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*.html")
        if "admin" not in path.relative_to(TEMPLATES).parts
        and "{% url " in path.read_text(encoding="utf-8")
    )

    assert with_url_tag == []
