import pytest

from invoicekit.formatting import format_money
from invoicekit.money import Money


@pytest.mark.parametrize(
    "amount, currency, text",
    [("1234.5", "USD", "$1,234.50"), ("0.125", "KWD", "KD 0.125"), ("1200", "JPY", "¥1,200"), ("19.9", "CHF", "CHF 19.90")],
    ids=["usd", "kwd", "jpy", "chf"],
)
def test_format_with_symbol(amount, currency, text):
    assert format_money(Money(amount, currency)) == text


def test_format_with_code():
    assert format_money(Money("1234.5", "EUR"), style="code") == "1,234.50 EUR"


def test_format_negative():
    assert format_money(Money("-5", "USD")) == "-$5.00"
    assert format_money(Money("-5", "USD"), accounting=True) == "($5.00)"


def test_format_rounds_half_up():
    assert format_money(Money("2.345", "GBP")) == "£2.35"


def test_format_unknown_style_raises():
    with pytest.raises(ValueError):
        format_money(Money("1", "USD"), style="words")
