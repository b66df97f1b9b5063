"""Invoice lines and totals, rounded the way VAT invoices are."""
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from .money import CurrencyMismatch, Money


@dataclass(frozen=True)
class LineItem:
    description: str
    quantity: Decimal
    unit_price: Money
    # A fraction, not a percentage: 0.19 for 19 %.
    tax_rate: Decimal = Decimal(0)

    def net(self) -> Money:
        """Quantity times unit price, rounded to the currency's minor unit."""
        return (self.unit_price * Decimal(self.quantity)).quantize()

    def tax(self) -> Money:
        """The tax on this line alone; invoices tax per rate (see Invoice.tax_breakdown)."""
        return (self.net() * self.tax_rate).quantize()


class Invoice:
    """Lines in one currency.

    Tax is computed per rate on the summed net amounts rather than per line, so
    rounding happens once per rate, as EU VAT rules ask.
    """

    def __init__(self, currency: str, lines: "list[LineItem] | tuple[LineItem, ...]" = ()) -> None:
        self.currency = Money.zero(currency).currency
        self.lines: list[LineItem] = []
        for line in lines:
            self.add(line)

    def add(self, line: LineItem) -> None:
        if line.unit_price.currency != self.currency:
            raise CurrencyMismatch(
                f"line {line.description!r} is in {line.unit_price.currency}, the invoice in {self.currency}"
            )
        self.lines.append(line)

    def subtotal(self) -> Money:
        return sum((line.net() for line in self.lines), Money.zero(self.currency))

    def tax_breakdown(self) -> dict[Decimal, Money]:
        """Tax per rate, lowest rate first."""
        nets: dict[Decimal, Money] = defaultdict(lambda: Money.zero(self.currency))
        for line in self.lines:
            nets[line.tax_rate] += line.net()
        return {rate: (net * rate).quantize() for rate, net in sorted(nets.items())}

    def tax_total(self) -> Money:
        return sum(self.tax_breakdown().values(), Money.zero(self.currency))

    def total(self) -> Money:
        return self.subtotal() + self.tax_total()
