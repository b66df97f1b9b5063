"""Exact money amounts: a Decimal and an ISO 4217 currency code."""
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from .currency import get_currency


class CurrencyMismatch(ValueError):
    """Two amounts in different currencies were combined."""


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str

    def __post_init__(self) -> None:
        if isinstance(self.amount, float):
            # 0.1 + 0.2 != 0.3 in binary floating point: cents would drift.
            raise TypeError("Money needs a Decimal, int or str amount, not a float")
        object.__setattr__(self, "amount", Decimal(self.amount))
        object.__setattr__(self, "currency", get_currency(self.currency).code)

    @classmethod
    def zero(cls, currency: str) -> "Money":
        return cls(Decimal(0), currency)

    def _check_currency(self, other: "Money") -> None:
        if self.currency != other.currency:
            raise CurrencyMismatch(f"cannot combine {self.currency} and {other.currency}")

    def __add__(self, other: "Money") -> "Money":
        if not isinstance(other, Money):
            return NotImplemented
        self._check_currency(other)
        return Money(self.amount + other.amount, self.currency)

    def __radd__(self, other: object) -> "Money":
        # Lets sum() start from its default 0.
        if other == 0:
            return self
        return NotImplemented

    def __sub__(self, other: "Money") -> "Money":
        if not isinstance(other, Money):
            return NotImplemented
        self._check_currency(other)
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self) -> "Money":
        return Money(-self.amount, self.currency)

    def __mul__(self, factor: "int | Decimal") -> "Money":
        if isinstance(factor, float):
            raise TypeError("multiply Money by an int or a Decimal, not a float")
        if not isinstance(factor, (int, Decimal)):
            return NotImplemented
        return Money(self.amount * factor, self.currency)

    __rmul__ = __mul__

    def _unit(self) -> Decimal:
        return Decimal(1).scaleb(-get_currency(self.currency).minor_units)

    def quantize(self) -> "Money":
        """Round to the currency's minor unit, halves away from zero (2.345 -> 2.35)."""
        return Money(self.amount.quantize(self._unit(), rounding=ROUND_HALF_UP), self.currency)

    def is_zero(self) -> bool:
        return self.amount == 0

    def allocate(self, ratios: list[int]) -> list["Money"]:
        """Split into parts proportional to ratios without losing a cent.

        The minor units that do not divide evenly go to the first parts, one each.
        """
        if not ratios or any(ratio < 0 for ratio in ratios) or sum(ratios) == 0:
            raise ValueError(f"ratios must be non-negative and not all zero: {ratios!r}")
        unit = self._unit()
        total = self.quantize().amount
        parts = [(total * ratio / sum(ratios)).quantize(unit, rounding=ROUND_DOWN) for ratio in ratios]
        step = unit if total >= 0 else -unit
        for index in range(int((total - sum(parts)) / step)):
            parts[index % len(parts)] += step
        return [Money(part, self.currency) for part in parts]

    def __str__(self) -> str:
        return f"{self.amount} {self.currency}"
