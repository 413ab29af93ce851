"""Shared test helpers: fakes, loopback servers speaking provider protocols, PostgreSQL fixtures."""
