"""Presentation without Telegram: the languages' catalogues (``i18n``), each game's text
screens and buttons (``ui``) and its board pictures (``pictures``), all drawn from an
engine's views."""
