"""Configuration loading for the example app."""
import json
from dataclasses import dataclass


@dataclass
class Config:
    name: str
    debug: bool = False

    def describe(self) -> str:
        return f"{self.name} (debug={self.debug})"


def parse_config(text: str) -> Config:
    """Parses a JSON document into a Config."""
    data = json.loads(text)

    def flag(key: str) -> bool:
        return bool(data.get(key, False))

    return Config(name=data["name"], debug=flag("debug"))


def load_config(path: str) -> Config:
    with open(path, encoding="utf-8") as handle:
        return parse_config(handle.read())
