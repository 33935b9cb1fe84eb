"""Threat cards: their data (``cards``) and the hooks that give them their abilities."""
