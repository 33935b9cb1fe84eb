"""Turns a rendered sheet (HTML) into PDF bytes with WeasyPrint, loaded only when needed."""

from __future__ import annotations

from typing import Any

from authoring.errors import EnvironmentMissingError

INSTALL_HINT = (
    "install WeasyPrint with `pip install 'spacealert-authoring[pdf]'` (or `pip install "
    "weasyprint`) and its system libraries with `apt-get install libpango-1.0-0 "
    "libpangoft2-1.0-0 fonts-dejavu-core`; HTML output (-o sheet.html) works without them"
)


def _weasyprint() -> Any:
    """Imports WeasyPrint, mapping a missing package or missing pango to exit code 3."""
    try:
        import weasyprint
    except ImportError as error:
        raise EnvironmentMissingError(
            f"PDF output needs WeasyPrint, which is not installed ({error})",
            hint=INSTALL_HINT) from None
    except OSError as error:  # WeasyPrint is there but cannot load pango/harfbuzz
        raise EnvironmentMissingError(
            f"PDF output needs the pango library, which WeasyPrint cannot load ({error})",
            hint=INSTALL_HINT) from None
    return weasyprint


def check_pdf_support() -> None:
    """Raises ``EnvironmentMissingError`` (exit 3) now when PDFs could not be written later.

    For commands that would otherwise spend minutes on audio before their first PDF.
    """
    _weasyprint()


def _inline_only(weasyprint: Any) -> Any:
    """Returns a URL fetcher that serves ``data:`` URIs only: sheets never reach out."""
    urls = weasyprint.urls
    if hasattr(urls, "URLFetcher"):  # WeasyPrint >= 68: a fetcher class
        return urls.URLFetcher(allowed_protocols={"data"})

    def fetch(url: str, *args: Any, **kwargs: Any) -> Any:  # older: a fetcher function
        if not url.startswith("data:"):
            raise ValueError(f"sheets are self-contained; refusing to fetch {url}")
        return urls.default_url_fetcher(url, *args, **kwargs)

    return fetch


def html_to_pdf(html: str) -> bytes:
    """Returns the PDF of a self-contained HTML sheet (no external resources are fetched)."""
    weasyprint = _weasyprint()

    document = weasyprint.HTML(string=html, base_url=".", url_fetcher=_inline_only(weasyprint))
    pdf: bytes = document.write_pdf()
    return pdf
