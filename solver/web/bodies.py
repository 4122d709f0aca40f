"""What the API reads from a request's body: a JSON object."""

from __future__ import annotations

import json
from typing import Any

from solver.errors import InputError


def json_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object (an empty body is ``{}``).

    Raises:
        InputError: not JSON, or not an object.
    """
    try:
        data = json.loads(raw or b"{}")
    except json.JSONDecodeError:
        raise InputError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise InputError("the request is not a JSON object")
    return data
