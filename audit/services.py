"""The one way any app records an audit event."""

from __future__ import annotations

from .models import AuditEvent


def client_ip(request) -> str | None:
    return request.META.get("REMOTE_ADDR") if request is not None else None


def audit_record(*, kind: str, request=None, user=None, subject: str = "", **detail) -> AuditEvent:
    """Append one event; the user defaults to the request's, the IP to its address."""
    if user is None and request is not None and request.user.is_authenticated:
        user = request.user
    return AuditEvent.objects.create(
        kind=kind,
        user=user,
        subject=subject[:150],
        detail=detail,
        ip_address=client_ip(request),
    )
