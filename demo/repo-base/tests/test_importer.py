from decimal import Decimal

import pytest

from invoicekit.importer import CsvImportError, load_invoice_csv
from invoicekit.money import Money

US_EXPORT = """description,quantity,unit_price,tax_rate
Consulting,2,"$1,150.00",10 %
Travel,1,$84.20,
"""


def test_load_comma_export():
    invoice = load_invoice_csv(US_EXPORT)
    assert invoice.currency == "USD"
    assert [line.description for line in invoice.lines] == ["Consulting", "Travel"]
    assert invoice.lines[0].tax_rate == Decimal("0.1")
    assert invoice.total() == Money("2614.20", "USD")


def test_empty_tax_rate_means_untaxed():
    invoice = load_invoice_csv(US_EXPORT)
    assert invoice.lines[1].tax_rate == 0
    assert invoice.tax_breakdown()[Decimal(0)].is_zero()


def test_given_currency_applies_to_bare_prices():
    invoice = load_invoice_csv("description,quantity,unit_price,tax_rate\nHosting,12,9.99,20 %\n", currency="GBP")
    assert invoice.lines[0].unit_price == Money("9.99", "GBP")
    assert invoice.total() == Money("143.86", "GBP")


def test_missing_column_is_named():
    with pytest.raises(CsvImportError, match="missing column.*tax_rate"):
        load_invoice_csv("description,quantity,unit_price\nPens,2,$1.00\n")


def test_bad_cell_names_line_and_column():
    with pytest.raises(CsvImportError, match="line 3: unit_price"):
        load_invoice_csv("description,quantity,unit_price,tax_rate\nPens,2,$1.00,0 %\nInk,1,lots,0 %\n")


def test_header_only_raises():
    with pytest.raises(CsvImportError, match="no invoice lines"):
        load_invoice_csv("description,quantity,unit_price,tax_rate\n")
