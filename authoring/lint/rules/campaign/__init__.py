"""Campaign rules (family C): they look at the missions of a campaign file in order."""
