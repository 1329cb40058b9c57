"""The audit log's list reads each event's detail as a line, not as JSON."""

from audit.enums import AuditKind
from audit.models import AuditEvent
from teaching.admin_records import DETAIL_CHARS, detail_text


def test_the_audit_list_shows_the_detail_as_words(admin_client, db):
    AuditEvent.objects.create(
        kind=AuditKind.REGRADE_RUN,
        subject="regrade",
        detail={"questions": ["q-10-01", "q-10-02"], "changed": 2, "to_right": 1, "note": ""},
    )

    html = admin_client.get("/admin/audit/auditevent/").content.decode()

    assert "changed: 2; questions: q-10-01, q-10-02; turned right: 1</td>" in html
    assert "{&quot;questions&quot;" not in html


def test_detail_text_reads_booleans_mappings_and_cuts_long_lists():
    assert detail_text({"correct": True, "impact": {"q-10-01": [2, 3]}, "odd_key": False}) == (
        "right: yes; answered before (learners, attempts): (q-10-01 2, 3); odd key: no"
    )
    long = detail_text({"questions": [f"q-{n:02}-{n:02}" for n in range(200)]})
    assert long.startswith("questions: q-00-00, q-01-01") and ", …" in long
    assert len(detail_text({"note": "x" * 5000})) == DETAIL_CHARS


def test_detail_keys_read_in_the_viewers_language():
    from django.utils import translation

    with translation.override("es"):
        line = detail_text({"to_right": 1, "new_correct": True, "impact": {"q-10-01": [2, 3]}})

    assert line == (
        "respuestas previas (estudiantes, intentos): (q-10-01 2, 3); "
        "correcta ahora: sí; pasaron a correctas: 1"
    )


def test_the_graders_doubts_read_as_words_in_the_viewers_language():
    from django.utils import translation

    with translation.override("es"):
        line = detail_text({"doubts": ["typo"]})

    assert line == "dudas: correcta solo gracias a una palabra leída como errata"
