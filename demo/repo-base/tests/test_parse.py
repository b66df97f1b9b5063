from decimal import Decimal

import pytest

from invoicekit.money import Money
from invoicekit.parse import ParseError, parse_amount, parse_decimal, parse_percent


@pytest.mark.parametrize(
    "text, currency, amount",
    [
        ("$1,234.50", "USD", "1234.50"),
        ("12.00 EUR", "EUR", "12.00"),
        ("EUR 12", "EUR", "12"),
        ("usd 5", "USD", "5"),
        ("1,000,000 JPY", "JPY", "1000000"),
        ("CHF 19.90", "CHF", "19.90"),
    ],
)
def test_parse_amount(text, currency, amount):
    assert parse_amount(text) == Money(amount, currency)


def test_parse_currency_symbols():
    assert parse_amount("€12.50") == Money("12.50", "EUR")
    assert parse_amount("£0.99") == Money("0.99", "GBP")
    assert parse_amount("¥1,200") == Money("1200", "JPY")


def test_parse_keeps_written_precision():
    assert parse_amount("0.125 KWD").amount == Decimal("0.125")
    assert str(parse_amount("  7.5 USD ").amount) == "7.5"


def test_parse_uses_default_currency():
    assert parse_amount("42.10", default_currency="gbp") == Money("42.10", "GBP")


def test_parse_without_currency_raises():
    with pytest.raises(ParseError, match="no currency"):
        parse_amount("42.10")


def test_parse_unknown_currency_raises():
    with pytest.raises(ParseError, match="unknown currency"):
        parse_amount("12 XYZ")


def test_parse_two_currency_markers_raises():
    with pytest.raises(ParseError, match="two currency markers"):
        parse_amount("$12 USD")


@pytest.mark.parametrize("text", ["abc", "USD", "12..5 USD", "1 2 USD", "$"])
def test_parse_garbage_raises(text):
    with pytest.raises(ParseError):
        parse_amount(text)


@pytest.mark.parametrize("text, rate", [("19 %", "0.19"), ("7.5%", "0.075"), ("0 %", "0")])
def test_parse_percent(text, rate):
    assert parse_percent(text) == Decimal(rate)


def test_parse_percent_needs_percent_sign():
    with pytest.raises(ParseError):
        parse_percent("19")


def test_parse_decimal():
    assert parse_decimal("3") == 3
    assert parse_decimal(" 1.5 ") == Decimal("1.5")
    assert parse_decimal("1,000") == 1000
    with pytest.raises(ParseError):
        parse_decimal("three")
