"""Modules specific to one paper each (see DESIGN.md), exported by the notebooks nbs/1x_*.ipynb."""
