"""Builds the link to a rule's documentation page: the one place that knows the address.

The pages are ``docs/lint/<CODE>.md``, generated from each rule's docstring (``docs/gen``). The
setting ``SPACEALERT_DOCS_URL`` says where readers find them (docs/guides/check.md, "Output for
CI, and links to rule pages"):

* unset: ``docs/lint/<CODE>.md``, the page in this repository relative to its root;
* a folder path: that folder in place of ``docs``;
* an ``http(s)`` address of a built copy of the site: its page, ``BASE/lint/CODE/``
  (MkDocs publishes ``lint/<CODE>.md`` at that address).
"""

from __future__ import annotations

import os

DOCS_URL_ENV = "SPACEALERT_DOCS_URL"
DEFAULT_DOCS_BASE = "docs"


def docs_base() -> str:
    """Returns the configured documentation base (``docs`` when the setting is unset)."""
    return os.environ.get(DOCS_URL_ENV, "").strip() or DEFAULT_DOCS_BASE


def is_web_address(base: str) -> bool:
    """Tells whether ``base`` is an absolute web address rather than a folder path."""
    return base.startswith(("https://", "http://"))


def rule_doc_url(code: str, base: str | None = None) -> str:
    """Returns the address of the page documenting lint or validator code ``code``."""
    root = (docs_base() if base is None else base).rstrip("/")
    if is_web_address(root):
        return f"{root}/lint/{code}/"
    return f"{root}/lint/{code}.md"
