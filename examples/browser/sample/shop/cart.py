from dataclasses import dataclass, field


def parse_price(text):
    """Turns '12.50 EUR' into cents."""
    amount, _, _currency = text.partition(" ")
    return round(float(amount) * 100)


@dataclass
class LineItem:
    sku: str
    quantity: int
    unit_cents: int


@dataclass
class Cart:
    items: list = field(default_factory=list)

    def add_item(self, sku, quantity, price_text):
        self.items.append(LineItem(sku, quantity, parse_price(price_text)))

    def total(self):
        def line_total(item):
            return item.quantity * item.unit_cents

        return sum(line_total(item) for item in self.items)
