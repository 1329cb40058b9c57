"""`portal.links.href`: reverse() kept per process, still right under a script prefix."""

from django.urls import get_script_prefix, reverse, set_script_prefix

from portal.links import href


def test_href_is_what_reverse_gives():
    assert href("progress:phase", 3) == reverse("progress:phase", args=[3])
    assert href("progress:answer", "q-01-02") == reverse("progress:answer", args=["q-01-02"])
    assert href("home") == reverse("home")


def test_href_follows_the_script_prefix_of_the_request():
    before = href("progress:phase", 3)
    old = get_script_prefix()
    set_script_prefix("/portal/")
    try:
        assert href("progress:phase", 3) == "/portal" + before
    finally:
        set_script_prefix(old)
    assert href("progress:phase", 3) == before
