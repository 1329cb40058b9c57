"""Reading what an admin page's form carries, as a browser posting it would."""

import re


def basis(response) -> str:
    """The regrade confirmation's `basis`: what the plan it shows was worked out from."""
    match = re.search(r'name="basis" value="([^"]*)"', response.content.decode())
    assert match, "no regrade confirmation form"
    return match.group(1)
