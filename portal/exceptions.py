"""The application's errors: one base, carrying the HTTP status a view answers with and
a message for the person. Typed refusals in services derive from it; views turn one into
a response with `portal.errors.error_response`, commands into Django's CommandError."""


class AppError(Exception):
    """A refusal of the application's own: nothing was written. `status` is the HTTP
    status a view answers with; `message` is for the person (translated where shown)."""

    status = 400
    default_message = ""

    def __init__(self, message: str | None = None):
        self.message = str(message or self.default_message)
        super().__init__(self.message)
