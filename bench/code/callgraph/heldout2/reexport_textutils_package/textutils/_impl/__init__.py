"""Private implementation modules."""
