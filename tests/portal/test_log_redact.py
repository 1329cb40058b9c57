"""A live one-time secret never reaches a log, whatever path it is sent in."""

import pytest

from portal.log import redact

SECRET = "fIEPKlVsDyqxjxNXjm7WhD-MlVQLutucKQ14U2USMos"


@pytest.mark.parametrize(
    "path",
    [
        "/invite/{s}/",
        "/INVITE/{s}/",
        "/Setup/{s}/",
        "/invite;x/{s}/",
        "/x/{s}",
        "/%69nvite/{s}/",
    ],
)
def test_a_secret_in_any_path_is_redacted(path):
    logged = redact(f"Not Found: {path.format(s=SECRET)}")

    assert SECRET[4:] not in logged
    assert "[redacted]" in logged


def test_ordinary_paths_are_logged_as_they_are():
    line = "Not Found: /phase/10/?again=q-10-03 /static/css/portal.3f2a9c1b7e0d.css"

    assert redact(line) == line


def test_a_decoded_newline_cannot_forge_a_log_line():
    logged = redact(f"Not Found: /{SECRET}%0AINJECTED-LINE/")

    assert "\n" not in logged
    assert "[redacted]\\nINJECTED-LINE" in logged


def test_long_words_that_are_no_secret_are_kept():
    line = "Not Found: /admin/progress/attempt/?question__phase__current_revision__id=3"

    assert redact(line) == line
