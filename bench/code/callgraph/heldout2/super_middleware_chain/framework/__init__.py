from .handlers import Handler
from .middleware import AuthMixin, CorsMixin, LoggingMixin

__all__ = ["Handler", "AuthMixin", "CorsMixin", "LoggingMixin"]
