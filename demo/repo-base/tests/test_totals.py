from decimal import Decimal

import pytest

from invoicekit.money import CurrencyMismatch, Money
from invoicekit.totals import Invoice, LineItem

VAT = Decimal("0.19")
REDUCED = Decimal("0.07")


class TestLineItem:
    def test_net_rounds_to_cents(self):
        line = LineItem("Screws", Decimal(3), Money("0.335", "USD"))
        assert line.net() == Money("1.01", "USD")

    def test_tax_is_computed_on_the_rounded_net(self):
        line = LineItem("Paper", Decimal(1), Money("10.005", "EUR"), VAT)
        assert line.tax() == Money("1.90", "EUR")


class TestInvoiceTotals:
    def test_empty_invoice_is_zero(self):
        invoice = Invoice("EUR")
        assert invoice.total().is_zero()
        assert invoice.tax_breakdown() == {}

    def test_subtotal_sums_line_nets(self):
        invoice = Invoice(
            "EUR",
            [LineItem("Design", Decimal(2), Money("150", "EUR"), VAT), LineItem("Books", Decimal(1), Money("20", "EUR"), REDUCED)],
        )
        assert invoice.subtotal() == Money("320.00", "EUR")

    def test_tax_breakdown_rounds_once_per_rate(self):
        # Per line this would be 3 x 0.19 = 0.57; on the summed net it is 0.56.
        lines = [LineItem(f"Item {n}", Decimal(1), Money("0.98", "EUR"), VAT) for n in range(3)]
        invoice = Invoice("EUR", lines)
        assert invoice.tax_breakdown() == {VAT: Money("0.56", "EUR")}
        assert sum(line.tax() for line in lines) == Money("0.57", "EUR")

    def test_total_adds_tax(self):
        invoice = Invoice(
            "EUR",
            [LineItem("Design", Decimal(2), Money("150", "EUR"), VAT), LineItem("Books", Decimal(1), Money("20", "EUR"), REDUCED)],
        )
        assert invoice.tax_total() == Money("58.40", "EUR")
        assert invoice.total() == Money("378.40", "EUR")

    def test_rejects_line_in_other_currency(self):
        invoice = Invoice("EUR")
        with pytest.raises(CurrencyMismatch):
            invoice.add(LineItem("Import", Decimal(1), Money("5", "USD")))

    def test_yen_invoice_has_no_minor_units(self):
        invoice = Invoice("JPY", [LineItem("Tea", Decimal(3), Money("333.3", "JPY"), Decimal("0.08"))])
        assert invoice.total() == Money("1080", "JPY")
