"""Groups the threat cards: their data (``cards``) and the hooks of their abilities."""
