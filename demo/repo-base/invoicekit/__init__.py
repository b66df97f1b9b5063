"""invoicekit: exact money amounts, parsing and invoice totals (standard library only)."""
from .currency import Currency, UnknownCurrency, get_currency
from .formatting import format_money
from .money import CurrencyMismatch, Money
from .parse import ParseError, parse_amount, parse_decimal, parse_percent
from .totals import Invoice, LineItem

__version__ = "1.0.0"

__all__ = [
    "Currency",
    "CurrencyMismatch",
    "Invoice",
    "LineItem",
    "Money",
    "ParseError",
    "UnknownCurrency",
    "format_money",
    "get_currency",
    "parse_amount",
    "parse_decimal",
    "parse_percent",
]
