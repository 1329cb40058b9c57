"""The one way any app records an audit event."""

from __future__ import annotations

from .models import AuditEvent

# `user` not given: the request's. An explicit None stays None: a failed login is
# nobody's, though it may come through a learner's open session (red team 23).
REQUEST_USER = object()


def client_ip(request) -> str | None:
    return request.META.get("REMOTE_ADDR") if request is not None else None


def audit_record(
    *, kind: str, request=None, user=REQUEST_USER, subject: str = "", **detail
) -> AuditEvent:
    """Append one event; the user defaults to the request's (`user=None`: no one's), the
    IP to its address."""
    if user is REQUEST_USER:
        authenticated = request is not None and request.user.is_authenticated
        user = request.user if authenticated else None
    return AuditEvent.objects.create(
        kind=kind,
        user=user,
        subject=subject[:150],
        detail=detail,
        ip_address=client_ip(request),
    )
