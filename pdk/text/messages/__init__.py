"""The message tables, one module per area, each a ``MESSAGES`` dict of (English, 中文)
pairs; ``pdk.text.catalog`` merges them. Pure data: they import nothing."""
