class Inventory:
    """Stock levels by SKU."""

    def __init__(self):
        self.stock = {}

    def restock(self, sku, quantity):
        self.stock[sku] = self.stock.get(sku, 0) + quantity

    def reserve(self, sku, quantity):
        if self.stock.get(sku, 0) < quantity:
            raise ValueError(f"not enough {sku}")
        self.stock[sku] -= quantity


def load_inventory(rows):
    inventory = Inventory()
    for sku, quantity in rows:
        inventory.restock(sku, quantity)
    return inventory
