"""Test doubles for running the real bot without Telegram."""
