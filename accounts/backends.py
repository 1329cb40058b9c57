"""Authentication backend behind the login throttle."""

from django.contrib.auth.backends import ModelBackend, UserModel
from django.core.exceptions import PermissionDenied

from portal import sql

from .throttle import device_known, login_attempt_begin, login_attempt_finish


class ThrottledModelBackend(ModelBackend):
    """Django's backend behind the login throttle. Every login path (our page, the
    admin, the test client) authenticates through here, so none can bypass it."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(UserModel.USERNAME_FIELD, "")
        address = request.META.get("REMOTE_ADDR") if request is not None else None
        known_device = device_known(request, username or "")
        ticket = login_attempt_begin(
            username=username or "", address=address, known_device=known_device
        )
        if ticket.locked_until is not None:
            if request is not None:
                request.login_locked_until = ticket.locked_until
                request.login_held_by = ticket.held_by
            # PermissionDenied stops authenticate() from trying other backends.
            raise PermissionDenied
        user = None
        try:
            user = super().authenticate(request, username=username, password=password, **kwargs)
        finally:
            login_attempt_finish(ticket=ticket, succeeded=user is not None)
        if user is not None and request is not None:
            # KnownDeviceMiddleware leaves the cookie that marks this browser as the
            # account's own (throttle.py says why).
            request.known_device_for = user.get_username()
        return user

    def get_user(self, user_id):
        """ModelBackend.get_user (an inactive user is no user), the read of every
        request made without the ORM building it (`portal.sql.read`)."""
        user = sql.read(
            UserModel,
            "SELECT {columns} FROM {table} WHERE {table.pk} = %s",
            [UserModel._meta.pk.to_python(user_id)],
        )
        return user if user is not None and self.user_can_authenticate(user) else None
