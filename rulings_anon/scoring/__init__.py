"""The product's command: ``score`` finds the sensitive spans of new rulings and writes them, with
anonymized or pseudonymized copies in the input's format (the engine decides)."""
