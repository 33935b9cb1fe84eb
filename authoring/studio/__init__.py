"""``spacealert studio``: a local mission editor in the browser, over the toolkit itself.

The server (``server.py``) answers a small JSON API: the mission's text, its parsed model and
compiled timeline (``analysis.py``: what ``validate``, ``lint`` and ``timeline`` say), edits
applied to the YAML document so that comments survive (``document.py``), atomic saves that
refuse to overwrite a file changed on disk, excerpts of the soundtrack rendered through the
clip cache (``listen.py``) and new missions (``new.py``). The page (``static/``) only draws
and sends; every answer about the mission comes from the library.
"""

