"""Authentication backend that refuses logins for a throttled username."""

from django.contrib.auth.backends import ModelBackend, UserModel
from django.core.exceptions import PermissionDenied

from .services import login_locked_until


class ThrottledModelBackend(ModelBackend):
    """Django's backend behind the login throttle. Every login path (our page, the
    admin, the test client) authenticates through here, so none can bypass it."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(UserModel.USERNAME_FIELD, "")
        locked_until = login_locked_until(username=username or "")
        if locked_until is not None:
            if request is not None:
                request.login_locked_until = locked_until
            # PermissionDenied stops authenticate() from trying other backends.
            raise PermissionDenied
        return super().authenticate(request, username=username, password=password, **kwargs)
