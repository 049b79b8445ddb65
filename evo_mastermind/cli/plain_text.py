"""reStructuredText inline markup of docstrings, rendered as plain text for a terminal."""

from __future__ import annotations

import re

_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`(~?)([^`<]*?)(?:\s*<([^`>]+)>)?`")
_LITERAL = re.compile(r"``([^`]+)``")
_INTERPRETED = re.compile(r"`([^`]+)`_{0,2}")


def _role(match: re.Match[str]) -> str:
    shortened, text, target = match.group(1), match.group(2).strip(), match.group(3)
    if text and target:  # :class:`the player <evo_mastermind.players.Player>`
        return text
    name = text or target or ""
    return name.rsplit(".", 1)[-1] if shortened else name


def plain_text(markup: str) -> str:
    """``markup`` without its inline markup, as ``evo-mastermind players`` prints it.

    Literals lose their double back quotes, a role (``:mod:``, ``:class:``) leaves its
    target (the last part only after ``~``) or its title, a link leaves its text.
    """
    text = _ROLE.sub(_role, markup)
    text = _LITERAL.sub(r"\1", text)
    return _INTERPRETED.sub(lambda match: re.sub(r"\s*<[^>]+>$", "", match.group(1)), text)
