"""What is specific to one paper: its parameter mappings, bounds and published tables (one module per paper notebook)."""
