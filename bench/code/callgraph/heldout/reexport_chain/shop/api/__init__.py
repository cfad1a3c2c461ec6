from .cart import *
from .payment import charge as checkout
