"""Read amounts, quantities and percentages the way people write them on invoices.

"$1,234.50", "12.00 EUR", "EUR 12", "19 %": exact Decimal values come out, and
text that is not one of these raises ParseError instead of being guessed at.
"""
import re
from decimal import Decimal

from .currency import UnknownCurrency, currency_for_token, get_currency
from .money import Money


class ParseError(ValueError):
    """The text is not an amount, quantity or percentage invoicekit can read."""


# Digits with optional thousands commas and an optional decimal part: "1,234.50".
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_AMOUNT_RE = re.compile(
    rf"(?P<prefix>[^\d\s.,]+)?\s*(?P<number>{_NUMBER})\s*(?P<suffix>[^\d\s.,]+)?"
)
_PERCENT_RE = re.compile(rf"(?P<number>{_NUMBER})\s*%")
_DECIMAL_RE = re.compile(_NUMBER)


def _to_decimal(number: str) -> Decimal:
    """Turn a matched number into a Decimal; commas only group thousands."""
    return Decimal(number.replace(",", ""))


def _resolve_currency(prefix: str | None, suffix: str | None, default_currency: str | None, text: str) -> str:
    if prefix and suffix:
        raise ParseError(f"two currency markers in {text!r}")
    token = prefix or suffix
    if token is None:
        if default_currency is None:
            raise ParseError(f"no currency in {text!r} and no default currency given")
        return get_currency(default_currency).code
    try:
        return currency_for_token(token).code
    except UnknownCurrency:
        raise ParseError(f"unknown currency {token!r} in {text!r}") from None


def parse_amount(text: str, default_currency: str | None = None) -> Money:
    """Parse an amount such as "$1,234.50", "12.00 EUR" or "EUR 12".

    The currency comes from a symbol or ISO code before or after the number;
    default_currency is used when the text has neither. The amount keeps the
    precision written in the text: use Money.quantize() to round it.
    """
    cleaned = text.strip()
    match = _AMOUNT_RE.fullmatch(cleaned)
    if match is None:
        raise ParseError(f"not an amount: {text!r}")
    currency = _resolve_currency(match["prefix"], match["suffix"], default_currency, text)
    amount = _to_decimal(match["number"])
    return Money(amount, currency)


def parse_percent(text: str) -> Decimal:
    """Parse a rate written as a percentage ("19 %", "7.5%") into a fraction (0.19)."""
    match = _PERCENT_RE.fullmatch(text.strip())
    if match is None:
        raise ParseError(f"not a percentage: {text!r}")
    return _to_decimal(match["number"]) / 100


def parse_decimal(text: str) -> Decimal:
    """Parse a plain number such as a quantity ("3", "1.5", "1,000")."""
    cleaned = text.strip()
    if _DECIMAL_RE.fullmatch(cleaned) is None:
        raise ParseError(f"not a number: {text!r}")
    return _to_decimal(cleaned)
