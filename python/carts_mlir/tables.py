"""Rows of records as a table: a pandas DataFrame when pandas is installed (what a notebook
shows best), else the list of dicts itself, so nothing here needs pandas."""

from __future__ import annotations


def as_table(rows: list[dict]):
    """A DataFrame with the columns in first-seen order, or ``rows`` without pandas."""
    try:
        import pandas
    except ImportError:
        return rows
    columns: list[str] = []
    for r in rows:
        columns += [k for k in r if k not in columns]
    return pandas.DataFrame(rows, columns=columns or None)
