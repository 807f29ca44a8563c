"""Shared test configuration. Package-specific fixtures live in tests/<package>/conftest.py."""
