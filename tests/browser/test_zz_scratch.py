import pytest
from .test_new_user import learner_page, answer_first_single, PHONE, DESKTOP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_shots(browser, site):
    from datetime import timedelta
    import time_machine
    from django.utils import timezone
    page, _ = learner_page(browser, site, "shot", "es", viewport=PHONE)
    answer_first_single(page, site, option=0)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        page.goto(site + "/")
        page.screenshot(path="/tmp/ux/home-es-360.png")
        page.goto(site + "/progress/")
        page.screenshot(path="/tmp/ux/progress-es-360.png", full_page=True)
    page.context.close()
    page, _ = learner_page(browser, site, "shot2", "en", viewport=DESKTOP)
    page.goto(site + "/")
    page.screenshot(path="/tmp/ux/home-en-1280.png")
    page.context.close()
