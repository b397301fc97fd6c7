"""Modules specific to one paper each (see DESIGN.md): the paper notebooks nbs/1x_*.ipynb export here."""
