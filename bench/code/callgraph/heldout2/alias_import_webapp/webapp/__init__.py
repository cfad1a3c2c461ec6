"""webapp: a deliberately tiny routing framework."""
__version__ = "0.1.0"
