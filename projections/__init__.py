"""Read models built only from events."""
