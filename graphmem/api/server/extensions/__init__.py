"""The schema's extensions, one a module: every operation runs through them, in the order
``server/schema.py`` lists them."""
