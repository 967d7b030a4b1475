from app.config import parse_config


def test_parse_config():
    config = parse_config('{"name": "demo", "debug": true}')
    assert config.debug
