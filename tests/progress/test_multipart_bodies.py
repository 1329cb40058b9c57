"""Multipart bodies a browser never sends: a codec that is no text encoding, a part in
base64, a charset other than UTF-8. Each is a 400 and stores nothing (red team 7)."""

import base64

import pytest

from progress.models import Attempt, Draft


def _multipart(token: bytes, text_part: bytes) -> bytes:
    return (
        b'--b\r\nContent-Disposition: form-data; name="token"\r\n\r\n'
        + token
        + b"\r\n--b\r\n"
        + text_part
        + b"\r\n--b--\r\n"
    )


@pytest.mark.parametrize("charset", ["rot13", "base64", "zlib", "undefined", "latin-1"])
def test_a_multipart_charset_other_than_utf8_is_a_400(
    seeds_imported, learner_client, phase_token, charset
):
    token = phase_token("q-10-03").encode()
    body = _multipart(token, b'Content-Disposition: form-data; name="text"\r\n\r\ncaf\xc3\xa9')

    response = learner_client.generic(  # post() would encode the body in that charset
        "POST",
        "/question/q-10-03/answer/",
        data=body,
        content_type=f"multipart/form-data; boundary=b; charset={charset}",
    )

    assert response.status_code == 400
    assert Attempt.objects.count() == 0


def test_a_base64_part_that_is_not_utf8_is_a_400(seeds_imported, learner_client, phase_token):
    token = phase_token("q-10-03").encode()
    encoded = base64.b64encode(b"identity path \xff\xfe caf\xe9")
    part = (
        b'Content-Disposition: form-data; name="text"\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\n" + encoded
    )

    response = learner_client.post(
        "/question/q-10-03/answer/",
        data=_multipart(token, part),
        content_type="multipart/form-data; boundary=b",
    )

    assert response.status_code == 400
    assert "not valid UTF-8" in response.content.decode()
    assert (Attempt.objects.count(), Draft.objects.count()) == (0, 0)


def test_a_typed_replacement_character_is_kept(seeds_imported, learner_client, phase_token):
    token = phase_token("q-10-03").encode()
    part = b'Content-Disposition: form-data; name="text"\r\n\r\nidentity \xef\xbf\xbd path'

    response = learner_client.post(
        "/question/q-10-03/answer/",
        data=_multipart(token, part),
        content_type="multipart/form-data; boundary=b",
    )

    assert response.status_code in (200, 302)
    assert Attempt.objects.get().answer["text"] == "identity \ufffd path"


def test_a_real_replacement_character_does_not_let_a_bad_base64_part_through(
    seeds_imported, learner_client, phase_token
):
    token = phase_token("q-10-03").encode()
    bad = base64.b64encode(b"identity path \xff\xfe")
    parts = (
        b'Content-Disposition: form-data; name="text"\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\n" + bad + b"\r\n--b\r\n"
        b'Content-Disposition: form-data; name="context"\r\n\r\n\xef\xbf\xbd'
    )

    response = learner_client.post(
        "/question/q-10-03/answer/",
        data=_multipart(token, parts),
        content_type="multipart/form-data; boundary=b",
    )

    assert response.status_code == 400
    assert Attempt.objects.count() == 0


@pytest.mark.parametrize("charset", ["utf_8", "UTF-8", "us-ascii"])
def test_a_multipart_charset_naming_utf8_or_ascii_is_read(
    seeds_imported, learner_client, phase_token, charset
):
    token = phase_token("q-10-03").encode()
    part = b'Content-Disposition: form-data; name="text"\r\n\r\nthe identity path'

    response = learner_client.generic(
        "POST",
        "/question/q-10-03/answer/",
        data=_multipart(token, part),
        content_type=f"multipart/form-data; boundary=b; charset={charset}",
    )

    assert response.status_code in (200, 302)
    assert Attempt.objects.count() == 1
