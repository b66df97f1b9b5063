from decimal import Decimal

import pytest

from invoicekit.currency import UnknownCurrency
from invoicekit.money import CurrencyMismatch, Money


def test_amount_from_str_and_int():
    assert Money("12.50", "usd") == Money(Decimal("12.5"), "USD")
    assert Money(3, "EUR").amount == Decimal(3)


def test_rejects_float_amount():
    with pytest.raises(TypeError):
        Money(0.1, "USD")


def test_rejects_unknown_currency():
    with pytest.raises(UnknownCurrency):
        Money("1", "XYZ")


def test_add_and_subtract_same_currency():
    assert Money("1.10", "EUR") + Money("2.20", "EUR") == Money("3.30", "EUR")
    assert Money("1.10", "EUR") - Money("2.20", "EUR") == Money("-1.10", "EUR")
    assert sum([Money("1", "GBP"), Money("2", "GBP")]) == Money("3", "GBP")


def test_combining_currencies_raises():
    with pytest.raises(CurrencyMismatch):
        Money("1", "USD") + Money("1", "EUR")


@pytest.mark.parametrize(
    "currency, amount, rounded",
    [("USD", "2.345", "2.35"), ("USD", "-2.345", "-2.35"), ("JPY", "1234.5", "1235"), ("KWD", "1.2345", "1.235")],
)
def test_quantize_rounds_half_away_from_zero(currency, amount, rounded):
    assert Money(amount, currency).quantize().amount == Decimal(rounded)


def test_multiply_by_quantity():
    assert Money("0.335", "USD") * 3 == Money("1.005", "USD")
    assert Decimal("1.5") * Money("10", "USD") == Money("15", "USD")


def test_allocate_keeps_every_cent():
    parts = Money("100.00", "USD").allocate([1, 1, 1])
    assert [part.amount for part in parts] == [Decimal("33.34"), Decimal("33.33"), Decimal("33.33")]
    assert sum(parts) == Money("100", "USD")


def test_allocate_negative_amount():
    parts = Money("-0.05", "EUR").allocate([1, 1])
    assert [part.amount for part in parts] == [Decimal("-0.03"), Decimal("-0.02")]
