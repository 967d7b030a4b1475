"""A tiny widget toolkit."""


class Widget:
    kind = "widget"

    def __init__(self, label: str):
        self.label = label

    def render(self) -> str:
        return f"<{self.kind}>{self.label}</{self.kind}>"


class Button(Widget):
    kind = "button"

    def render(self) -> str:
        return f"[{self.label}]"

    def click(self, handler):
        return handler(self)
