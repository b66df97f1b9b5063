"""The ISO 4217 currencies invoicekit knows, with their symbols and minor units."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Currency:
    code: str
    symbol: str
    # Digits after the decimal mark: 2 for USD, 0 for JPY, 3 for KWD.
    minor_units: int


class UnknownCurrency(LookupError):
    """A code or symbol that is not in the currency table."""


_CURRENCIES = {
    currency.code: currency
    for currency in (
        Currency("USD", "$", 2),
        Currency("EUR", "€", 2),
        Currency("GBP", "£", 2),
        Currency("JPY", "¥", 0),
        Currency("CHF", "CHF", 2),
        Currency("KWD", "KD", 3),
    )
}


def get_currency(code: str) -> Currency:
    """Look a currency up by its ISO code ("usd" and "USD" both work)."""
    try:
        return _CURRENCIES[code.upper()]
    except KeyError:
        raise UnknownCurrency(f"unknown currency code: {code!r}") from None


def currency_for_token(token: str) -> Currency:
    """Resolve what is written next to an amount: an ISO code ("EUR") or a symbol ("€")."""
    if token.upper() in _CURRENCIES:
        return _CURRENCIES[token.upper()]
    for currency in _CURRENCIES.values():
        if currency.symbol == token:
            return currency
    raise UnknownCurrency(f"unknown currency: {token!r}")


def known_codes() -> list[str]:
    return sorted(_CURRENCIES)
