"""Write Money back as text: "$1,234.50", "1,234.50 USD" or accounting style "($5.00)"."""
from .currency import get_currency
from .money import Money


def format_money(money: Money, *, style: str = "symbol", accounting: bool = False) -> str:
    """Format an amount rounded to its currency's minor unit.

    style="symbol" puts the symbol first ("€12.50"), style="code" puts the ISO
    code last ("12.50 EUR"). Negative amounts get a minus sign, or parentheses
    when accounting=True.
    """
    currency = get_currency(money.currency)
    amount = money.quantize().amount
    digits = f"{abs(amount):,.{currency.minor_units}f}"
    if style == "symbol":
        # Multi-letter symbols ("CHF", "KD") read better with a space.
        separator = "" if len(currency.symbol) == 1 else " "
        body = f"{currency.symbol}{separator}{digits}"
    elif style == "code":
        body = f"{digits} {currency.code}"
    else:
        raise ValueError(f"unknown style {style!r}: use 'symbol' or 'code'")
    if amount < 0:
        return f"({body})" if accounting else f"-{body}"
    return body
