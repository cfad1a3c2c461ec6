from .api import Cart, checkout

__all__ = ["Cart", "checkout"]
