"""The record language: text in, record trees out. No rules knowledge here."""
