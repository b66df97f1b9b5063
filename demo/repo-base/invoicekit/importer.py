"""Load invoice lines from a CSV export with the columns
description, quantity, unit_price and tax_rate (one line item per row)."""
import csv
import io
from decimal import Decimal
from typing import Callable, TypeVar

from .parse import ParseError, parse_amount, parse_decimal, parse_percent
from .totals import Invoice, LineItem

COLUMNS = ("description", "quantity", "unit_price", "tax_rate")

T = TypeVar("T")


class CsvImportError(ValueError):
    """A CSV export that cannot be read; the message names the line and the column."""


def _cell(row: dict[str, str], column: str, line: int, parse: Callable[[str], T]) -> T:
    try:
        return parse(row[column])
    except ParseError as error:
        raise CsvImportError(f"line {line}: {column}: {error}") from None


def _tax_rate(text: str) -> Decimal:
    # An empty cell means the line is not taxed.
    return parse_percent(text) if text.strip() else Decimal(0)


def load_invoice_csv(text: str, currency: str | None = None) -> Invoice:
    """Build an Invoice from CSV text.

    currency applies to prices written without a currency; without it the
    invoice takes the currency of its first line.
    """
    reader = csv.DictReader(io.StringIO(text))
    missing = [column for column in COLUMNS if column not in (reader.fieldnames or [])]
    if missing:
        raise CsvImportError(f"line 1: missing column(s): {', '.join(missing)}")
    lines = []
    for row in reader:
        line = reader.line_num
        lines.append(
            LineItem(
                description=row["description"].strip(),
                quantity=_cell(row, "quantity", line, parse_decimal),
                unit_price=_cell(row, "unit_price", line, lambda cell: parse_amount(cell, currency)),
                tax_rate=_cell(row, "tax_rate", line, _tax_rate),
            )
        )
    if not lines:
        raise CsvImportError("no invoice lines after the header")
    return Invoice(currency or lines[0].unit_price.currency, lines)
