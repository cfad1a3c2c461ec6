"""Context for an agent: what it should know now within a budget, premortems, and the one-shot view the hooks use."""
